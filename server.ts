/**
 * The site's process, wiring only: the environment, Next.js's request handler behind our front
 * door (lib/site/front-door.ts: the client's address, the security headers, request ids and log
 * lines, the refusals that come before Next), the HTTP server and its shutdown
 * (lib/site/http-server.ts), and this instance's background jobs (lib/site/background-jobs.ts).
 *
 * Usage: tsx server.ts [--dev] [--port N]   (PORT and HOSTNAME also work). `npm start` runs it
 * bundled, with plain node (scripts/build/server-bundle.ts).
 */
import { requireSupportedNode } from "./lib/node-version";
import { setFlagsFromString } from "node:v8";
import nextEnv from "@next/env";
import { parseEnvOrExit } from "./lib/env";
import { log, sendConsoleErrorsToLog } from "./lib/log";
import { securityHeaders } from "./lib/security/headers";
import { developmentPolicies, loadPagePolicies } from "./lib/security/page-policies";
import { startBackgroundJobs, type BackgroundJobs } from "./lib/site/background-jobs";
import { createFrontDoor } from "./lib/site/front-door";
import { listen, shutDownOnSignals, siteServer } from "./lib/site/http-server";
import { loadInvalidEntryLinkPage } from "./lib/site/invalid-entry-link";
import { checkBeforeStart, openDatabaseBeforeStart, sayStarted } from "./lib/site/start";

requireSupportedNode();
const dev = process.argv.includes("--dev");
const portFlag = process.argv.indexOf("--port");
const port = Number(portFlag > -1 ? process.argv[portFlag + 1] : (process.env.PORT ?? 3000));
const hostname = process.env.HOSTNAME || undefined;

// As `next start` and `next dev` do; it must be set before Next (and React) load.
Object.assign(process.env, { NODE_ENV: dev ? "development" : "production" });
nextEnv.loadEnvConfig(process.cwd(), dev, { info: () => {}, error: (...args: unknown[]) => log.error(args.map(String).join(" ")) });
const env = parseEnvOrExit((message) => log.fatal(message));
// Next prints a page's uncaught error itself; through the log, it gets the log's redaction.
sendConsoleErrorsToLog();

// Keeps the heap near what is live (docs/performance.md, "The download through the server").
if (env.WAITLIST_HEAP_GROWING_PERCENT > 0) setFlagsFromString(`--heap-growing-percent=${env.WAITLIST_HEAP_GROWING_PERCENT}`);
await checkBeforeStart(env, { dev });

const { default: next } = await import("next");
const app = next({ dev, dir: process.cwd(), port, hostname });
await app.prepare();

const policies = dev ? developmentPolicies() : loadPagePolicies(".next");
const server = siteServer(
  createFrontDoor({
    env,
    dev,
    policies,
    headers: Object.entries(securityHeaders(!dev)),
    next: app.getRequestHandler(),
    invalidEntryLink: dev ? undefined : loadInvalidEntryLinkPage(".next", policies),
  }),
);

await openDatabaseBeforeStart();
let jobs: BackgroundJobs | undefined;
listen(server, port, hostname, () => {
  sayStarted(env, `http://${hostname ?? "localhost"}:${port}`, dev ? null : policies.pageCount);
  jobs = startBackgroundJobs(env);
});
shutDownOnSignals(server, () => jobs);
