/**
 * What the server needs before it takes a request, each refused with one sentence and exit code 1
 * (never a stack trace): the SITE_URL its build was made for, the site's secret (WAITLIST_SECRET,
 * or the embedded database's secret file, made now on a first start), mail settings that can work
 * safely, and the database file.
 */
import "server-only";
import path from "node:path";
import { DatabaseMissing, openDatabase } from "../db";
import { databaseSettings, parseEnv, type Env } from "../env";
import { log } from "../log";
import { mailAtStart } from "../mail/at-start";
import { SecretUnavailable, siteSecret } from "../security/secret";
import { deliveriesAtStart } from "../waitlist/deliveries";
import { builtSiteUrl } from "./build-record";

function refuseToStart(message: string): never {
  log.fatal(message);
  process.exit(1);
}

/** An address only this machine reaches: no search engine or link preview ever reads its pages. */
function isLoopback(url: URL): boolean {
  return url.hostname === "localhost" || url.hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(url.hostname);
}

/**
 * Why a production server must not start with this SITE_URL, or null: the build baked another into
 * its pages (canonical links, Open Graph, the sitemap, robots.txt), which would then tell search
 * engines and link previews the wrong address. `npm start` builds again when SITE_URL changed; this
 * is for the bundle run directly. A build without a record (next build alone) is not checked, nor
 * one made for this machine and run on it at another port (the tests run one build at several).
 */
function siteUrlProblem(env: Env, built: string | null = builtSiteUrl()): string | null {
  if (built === null) return null;
  const builds = parseEnv({ SITE_URL: built || undefined }).SITE_URL;
  const [buildsUrl, runsUrl] = [new URL(builds), new URL(env.SITE_URL)];
  if (buildsUrl.href === runsUrl.href || (isLoopback(buildsUrl) && isLoopback(runsUrl))) return null;
  return (
    `This build was made for SITE_URL=${builds}, but the server runs with ` +
    `SITE_URL=${env.SITE_URL}: its pages would give search engines and link previews the build's address. ` +
    "Build again with this SITE_URL (npm run build), or start with the build's."
  );
}

/** The secret, the build's address (production) and the mail settings; a key file others can read is a warning. */
export async function checkBeforeStart(env: Env, { dev }: { dev: boolean }): Promise<void> {
  const address = dev ? null : siteUrlProblem(env);
  if (address) refuseToStart(address);
  try {
    siteSecret();
  } catch (error) {
    if (!(error instanceof SecretUnavailable)) throw error;
    refuseToStart(error.message);
  }
  const mail = await mailAtStart(env);
  for (const warning of mail.warnings) log.warn(warning);
  if (mail.refusal) refuseToStart(mail.refusal);
}

/** The longest the server waits for the database before it listens anyway. */
const DATABASE_OPEN_DEADLINE_MS = 10_000;

/**
 * The database opened before the first request is taken: a health check asked at once finds it
 * answering, and from then on its connection's lock tells `restore` that the site runs. One that
 * does not answer in time does not keep the site from starting (/api/health reports it, each
 * request tries again); no database file at all is the operator's to fix first.
 */
export async function openDatabaseBeforeStart(): Promise<void> {
  try {
    await openDatabase(DATABASE_OPEN_DEADLINE_MS);
  } catch (error) {
    if (!(error instanceof DatabaseMissing)) throw error;
    refuseToStart(error.message);
  }
}

/** What the server says once it listens: where, the data, how to reach the console, the deliveries. */
export function sayStarted(env: Env, address: string, pageCount: number | null): void {
  log.info(
    `FieldCrew ${pageCount === null ? "development" : "production"} server on ${address}` +
      (pageCount === null ? "" : ` (${pageCount} prerendered pages with script hashes)`),
  );
  const data = databaseSettings(env);
  log.info(
    `Data: ${data.file ? `${path.relative(process.cwd(), data.file) || data.file} (SQLite, ${data.driver})` : `${new URL(env.DATABASE_URL).host} (libSQL server)`}.`,
  );
  log.info("The console: invite yourself with npm run waitlist -- operators add you@example.com, then open the link it prints.");
  for (const line of deliveriesAtStart(env)) log.info(line);
}
