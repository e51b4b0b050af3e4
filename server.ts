/**
 * The site's HTTP server: Next.js's own request handler behind our front door
 * (lib/site/front-door.ts: the client's address, the security headers, request ids and log
 * lines, and the refusals that come before Next), and this instance's background jobs
 * (lib/site/background-jobs.ts). On SIGTERM or SIGINT it shuts down within
 * SHUTDOWN_DEADLINE_MS: no new connections, requests in flight finished, the jobs stopped in
 * order, then the database closed (docs/deployment.md).
 *
 * Usage: tsx server.ts [--dev] [--port N]   (PORT and HOSTNAME also work). `npm start` runs it
 * bundled, with plain node (lib/build/server-bundle.ts).
 */
import { requireSupportedNode } from "./lib/build/node-version";
import { createServer } from "node:http";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import nextEnv from "@next/env";
import { closeDatabase, DatabaseMissing, openDatabase } from "./lib/db";
import { databaseSettings, parseEnvOrExit } from "./lib/env";
import { markShuttingDown } from "./lib/health";
import { errorFields, log } from "./lib/log";
import { securityHeaders } from "./lib/security/headers";
import { developmentPolicies, loadPagePolicies } from "./lib/security/page-policies";
import { SecretUnavailable, siteSecret } from "./lib/security/secret";
import { startBackgroundJobs, type BackgroundJobs } from "./lib/site/background-jobs";
import { answerClientErrors } from "./lib/site/client-errors";
import { createFrontDoor } from "./lib/site/front-door";
import { loadInvalidEntryLinkPage } from "./lib/site/invalid-entry-link";
import { deliveriesAtStart } from "./lib/waitlist/deliveries";
import { mailAtStart } from "./lib/mail/at-start";

requireSupportedNode();
const dev = process.argv.includes("--dev");
const portFlag = process.argv.indexOf("--port");
const port = Number(portFlag > -1 ? process.argv[portFlag + 1] : (process.env.PORT ?? 3000));
const hostname = process.env.HOSTNAME || undefined;

// As `next start` and `next dev` do; it must be set before Next (and React) load.
Object.assign(process.env, { NODE_ENV: dev ? "development" : "production" });
nextEnv.loadEnvConfig(process.cwd(), dev, { info: () => {}, error: (...args: unknown[]) => log.error(args.map(String).join(" ")) });
const env = parseEnvOrExit((message) => log.fatal(message));

// Keeps the heap near what is live (docs/performance.md, "The download through the server").
if (env.WAITLIST_HEAP_GROWING_PERCENT > 0) setFlagsFromString(`--heap-growing-percent=${env.WAITLIST_HEAP_GROWING_PERCENT}`);

// The secret that signs questions and links (WAITLIST_SECRET, or the embedded database's secret
// file, made now on a first start), and mail settings that can work safely: refuse to start without them.
try {
  siteSecret();
} catch (error) {
  if (!(error instanceof SecretUnavailable)) throw error;
  log.fatal(error.message);
  process.exit(1);
}
const mail = await mailAtStart(env);
for (const warning of mail.warnings) log.warn(warning);
if (mail.refusal) {
  log.fatal(mail.refusal);
  process.exit(1);
}

const { default: next } = await import("next");
const app = next({ dev, dir: process.cwd(), port, hostname });
await app.prepare();

const policies = dev ? developmentPolicies() : loadPagePolicies(".next");
const frontDoor = createFrontDoor({
  env,
  dev,
  policies,
  headers: Object.entries(securityHeaders(!dev)),
  next: app.getRequestHandler(),
  invalidEntryLink: dev ? undefined : loadInvalidEntryLinkPage(".next", policies),
});

const server = createServer(
  {
    // Node's defaults, written down: a request's headers are at most 16 KiB (431 past that).
    maxHeaderSize: 16 * 1024,
    // A request's headers must arrive within 20 s, and the whole request within 30 s: a client
    // sending a byte at a time holds a connection for that long at most, never a slot. A connection
    // the server has not read from yet when they pass is kept (lib/site/client-errors.ts).
    headersTimeout: 20_000,
    requestTimeout: 30_000,
    // How often those limits are checked (Node's default is every 30 s).
    connectionsCheckingInterval: 2_000,
  },
  frontDoor,
);
// An idle kept-alive connection stays open longer than a proxy keeps one (nginx's upstream
// keepalive_timeout and most load balancers' idle timeouts are 60 s), so the proxy always closes
// it first. With Node's 5 s, the server could close one just as the proxy (or a client whose
// event loop was stalled) sent a request on it: the request met a reset, and a proxy does not
// retry a POST, so a visitor's sign-up got a 502 (docs/security.md, "Hostile clients").
server.keepAliveTimeout = 65_000;
answerClientErrors(server);

// What a newcomer meets most: another server on the port. One sentence with the fix, no stack trace.
server.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EADDRINUSE")
    log.fatal(
      `Port ${port} is already in use (another server, perhaps an earlier npm start): stop it, or start on another port with PORT=${port + 1} npm start.`,
    );
  else if (error.code === "EACCES")
    log.fatal(
      `Port ${port} needs privileges this user does not have: use a port above 1023 (PORT=3000 npm start) and a proxy in front for 80 or 443.`,
    );
  else log.fatal({ fault: "unexpected", ...errorFields(error) }, "the server could not start listening");
  process.exit(1);
});

let jobs: BackgroundJobs | undefined;

/** The longest the server waits for the database before it listens anyway. */
const DATABASE_OPEN_DEADLINE_MS = 10_000;

// The database opened before the first request is taken: a health check asked at once finds it
// answering, and from now on its connection's lock tells `restore` that the site runs
// (lib/db/worker.mjs). One that does not answer in time does not keep the site from starting:
// /api/health reports it, and each request tries again. No database file at all is the
// operator's to fix first (npm start migrates before it starts the server).
try {
  await openDatabase(DATABASE_OPEN_DEADLINE_MS);
} catch (error) {
  if (!(error instanceof DatabaseMissing)) throw error;
  log.fatal(error.message);
  process.exit(1);
}

// A launch spike opens thousands of connections at once. Node's default queue of 511 unaccepted
// connections overflowed under the fault tests' flood of 3,000 (the kernel's ListenOverflows grew by
// 12,000 in one run), and with SYN cookies on, some of those clients were reset (ECONNRESET) instead
// of answered: no 503, no Retry-After. The kernel caps this at net.core.somaxconn (4096 here).
const LISTEN_BACKLOG = 4096;

server.listen({ port, host: hostname, backlog: LISTEN_BACKLOG }, () => {
  log.info(
    `FieldCrew ${dev ? "development" : "production"} server on http://${hostname ?? "localhost"}:${port}` +
      (dev ? "" : ` (${policies.pageCount} prerendered pages with script hashes)`),
  );
  const data = databaseSettings(env);
  log.info(
    `Data: ${data.file ? `${path.relative(process.cwd(), data.file) || data.file} (SQLite, ${data.driver})` : `${new URL(env.DATABASE_URL).host} (libSQL server)`}.`,
  );
  log.info("The console: invite yourself with npm run waitlist -- operators add you@example.com, then open the link it prints.");
  for (const line of deliveriesAtStart(env)) log.info(line);
  jobs = startBackgroundJobs(env);
});

/** How long requests in flight get to finish. */
const REQUESTS_GRACE_MS = 10_000;
/**
 * The whole shutdown's limit, below systemd's TimeoutStopSec (30 s, docs/deployment.md): past it
 * the process exits non-zero whatever is still waiting (a hung database), so the supervisor restarts it.
 */
const SHUTDOWN_DEADLINE_MS = 25_000;

let stopping = false;

async function shutDown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info(`${signal}: shutting down (no new connections; finishing requests and deliveries in flight)`);
  setTimeout(() => {
    log.error({ fault: "shutdown_deadline", deadline_ms: SHUTDOWN_DEADLINE_MS }, `${signal}: not stopped within the deadline; exiting now`);
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS).unref();
  markShuttingDown();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // A request in flight is answered only after its sign-up's batch has committed.
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, REQUESTS_GRACE_MS).unref())]);
  server.closeAllConnections();
  await jobs?.stop();
  await closeDatabase().catch((error: unknown) =>
    log.error({ fault: "database_unavailable", ...errorFields(error) }, "closing the database failed"),
  );
  log.info(`${signal}: stopped`);
  process.exit(0);
}
process.on("SIGTERM", () => void shutDown("SIGTERM"));
process.on("SIGINT", () => void shutDown("SIGINT"));
