/**
 * The site's HTTP server: Next.js's own request handler, with two things in
 * front of it that `next start` cannot do (docs/security.md):
 *
 * - It decides the client's address from the socket (and, when TRUST_PROXY_HOPS
 *   says so, from proxies' X-Forwarded-For) and hands it to the app in a header
 *   it always overwrites. `next start` passes on whatever X-Forwarded-For a
 *   visitor sends, which would let anyone pick their own rate-limit bucket.
 * - It sets the security headers, including a Content-Security-Policy that
 *   allows each prerendered page's inline scripts by hash, read from the build.
 *
 * - It gives every request an id (X-Request-Id), logs one JSON line for it
 *   (route, status, duration; lib/log.ts), answers 503 at once when too many
 *   requests are in flight (WAITLIST_MAX_IN_FLIGHT), and 400 to a path that is
 *   not valid percent-encoding, before Next sees either.
 *
 * It also runs this instance's delivery worker (lib/outbox/worker.ts), and on
 * SIGTERM or SIGINT shuts down gracefully, within SHUTDOWN_DEADLINE_MS: no new
 * connections, requests in flight (and so their sign-ups' commits) finished,
 * deliveries in flight finished, the rest handed back, then the database
 * closed (docs/deployment.md).
 *
 * Usage: tsx server.ts [--dev] [--port N]   (PORT and HOSTNAME also work)
 */
import { requireSupportedNode } from "./lib/build/node-version";
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import nextEnv from "@next/env";
import { startBackupSchedule } from "./lib/backup/schedule";
import { closeDatabase, getDatabase } from "./lib/db";
import { databaseSettings, parseEnv } from "./lib/env";
import { markShuttingDown } from "./lib/health";
import { REQUEST_ID_HEADER, retryLater } from "./lib/http";
import { errorFields, log } from "./lib/log";
import { configuredKinds, deliveriesAtStart, getDeliveryWorker } from "./lib/waitlist/deliveries";
import { startOverdueWatch } from "./lib/follow-up/overdue-watch";
import { startRetentionSweep } from "./lib/waitlist/retention";
import { startVisitSweep } from "./lib/analytics/sweep";
import { startSearchIndexer } from "./lib/operator/search-index";
import { visitHandler } from "./lib/analytics/site";
import { ENTRY_PAGE_PATH, VISIT_PATH } from "./lib/content/paths";
import { CLIENT_ADDRESS_HEADER, clientAddressOf } from "./lib/security/client-address";
import { isForeignPagePost } from "./lib/security/origin";
import { perRequestPageHeaders, securityHeaders } from "./lib/security/headers";
import { developmentPolicies, loadPagePolicies } from "./lib/security/page-policies";
import { hasBody, whenBodyArrives } from "./lib/security/request-body";
import { SecretUnavailable, siteSecret } from "./lib/security/secret";

requireSupportedNode();
const dev = process.argv.includes("--dev");
const portFlag = process.argv.indexOf("--port");
const port = Number(portFlag > -1 ? process.argv[portFlag + 1] : (process.env.PORT ?? 3000));
const hostname = process.env.HOSTNAME || undefined;

// As `next start` and `next dev` do; it must be set before Next (and React) load.
Object.assign(process.env, { NODE_ENV: dev ? "development" : "production" });
nextEnv.loadEnvConfig(process.cwd(), dev, { info: () => {}, error: (...args: unknown[]) => log.error(args.map(String).join(" ")) });
const env = parseEnv();

// V8 grows the heap to several times what is live when a lot is allocated (the console's
// download, a flood of sign-ups) before it collects, which showed as hundreds of MiB of resident
// memory for garbage. A bound keeps the heap near what is live, for a little more collecting
// (docs/performance.md, "The download through the server").
if (env.WAITLIST_HEAP_GROWING_PERCENT > 0) setFlagsFromString(`--heap-growing-percent=${env.WAITLIST_HEAP_GROWING_PERCENT}`);

// The secret that signs questions and links: from WAITLIST_SECRET, or the embedded database's
// secret file (made now on a first start). With neither possible, refuse to start and say why.
try {
  siteSecret();
} catch (error) {
  if (!(error instanceof SecretUnavailable)) throw error;
  log.fatal(error.message);
  process.exit(1);
}

const { default: next } = await import("next");
const app = next({ dev, dir: process.cwd(), port, hostname });
const handle = app.getRequestHandler();
await app.prepare();

const policies = dev ? developmentPolicies() : loadPagePolicies(".next");
const headers = Object.entries(securityHeaders(!dev));
const siteOrigin = new URL(env.SITE_URL).origin;

/** The path as logged: a visitor's page without its token (the token is the key to their data). */
function routeOf(pathname: string): string {
  return pathname.startsWith(`${ENTRY_PAGE_PATH}/`) ? `${ENTRY_PAGE_PATH}/:token` : pathname.slice(0, 200);
}

/**
 * In a terminal, a page's or asset's successful GET and the health checks are noise next to what a
 * developer looks for: logged at debug there (LOG_LEVEL=debug shows them). A log collected from a
 * service (not a terminal) keeps every request.
 */
const TERMINAL = process.stdout.isTTY === true;
function quietInTerminal(method: string | undefined, pathname: string, status: number): boolean {
  if (!TERMINAL || status >= 400) return false;
  return pathname === HEALTH_PATH || ((method === "GET" || method === "HEAD") && !pathname.startsWith("/api/"));
}

/** Whether the path is valid percent-encoding: Next would answer a broken one with a 500. */
function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * No route takes a larger body (the sign-up's 16 KiB is the largest). A request that declares a
 * bigger one is refused before a byte of it is read (what follows is discarded for LINGER_MS, then
 * the connection is closed); one that does not declare its size is refused as soon as it passes
 * this, before Next sees it (lib/security/request-body.ts). Routes still read with their own
 * tighter bounds (lib/http.ts).
 */
const MAX_REQUEST_BYTES = 64 * 1024;
/** How long the rest of a refused body is read and discarded before the connection is closed. */
const LINGER_MS = 2_000;

/** Requests being handled now; past WAITLIST_MAX_IN_FLIGHT, new ones get 503 at once. */
let inFlight = 0;
/** Health checks are answered even then: a load balancer must see the instance as it is. */
const HEALTH_PATH = "/api/health";

function answerAtOnce(response: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...extra });
  response.end(text);
}

function serve(request: IncomingMessage, response: ServerResponse): void {
  const started = performance.now();
  const requestId = randomUUID();
  const pathname = (request.url ?? "/").split("?")[0]!;
  // Ours, always: a visitor cannot choose the id their request is logged under.
  request.headers[REQUEST_ID_HEADER] = requestId;
  response.setHeader("X-Request-Id", requestId);
  // Held from the start: by the time a timer fires, the request may have let go of its socket.
  const socket = request.socket;
  // Answered before its body was read (413, 405, 503 at once): Node reads and discards the rest so the
  // client gets the answer (closing at once could reset the connection before the client reads it),
  // but only for LINGER_MS; a client still sending after that has its connection closed.
  response.once("finish", () => {
    if (request.complete) return;
    const linger = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    request.once("end", () => clearTimeout(linger));
  });
  let counted = false;
  response.once("close", () => {
    if (counted) inFlight -= 1;
    const fields = { request_id: requestId, method: request.method, route: routeOf(pathname), status: response.statusCode, ms: Math.round(performance.now() - started) };
    // A response that closed before it finished: the client went away (or the server gave up on it).
    if (!response.writableFinished) log.info({ ...fields, aborted: true }, "request");
    else if (quietInTerminal(request.method, pathname, response.statusCode)) log.debug(fields, "request");
    else log.info(fields, "request");
  });

  request.headers[CLIENT_ADDRESS_HEADER] = clientAddressOf(
    request.headers["x-forwarded-for"],
    request.socket.remoteAddress,
    env.TRUST_PROXY_HOPS,
  );
  response.setHeader("Content-Security-Policy", policies.forPath(pathname));
  for (const [name, value] of headers) response.setHeader(name, value);

  if (!isDecodable(pathname)) {
    log.warn({ fault: "malformed_url", request_id: requestId }, "path is not valid percent-encoding: 400");
    return answerAtOnce(response, 400, "That address is not valid.");
  }
  if (Number(request.headers["content-length"]) > MAX_REQUEST_BYTES) {
    return refuseTooLarge(response, requestId, { declared_bytes: Number(request.headers["content-length"]) }, "declared body too large: 413, unread");
  }
  if (isForeignPagePost(request.method, pathname, request.headers, siteOrigin)) {
    log.warn({ fault: "foreign_origin", request_id: requestId }, "form posted to a page from another site: 403");
    return answerAtOnce(response, 403, "This form can be sent only from this site's own pages.");
  }
  const admit = () => {
    // Counted from here: a body still arriving holds a connection, not one of the slots.
    inFlight += 1;
    counted = true;
    if (inFlight > env.WAITLIST_MAX_IN_FLIGHT && pathname !== HEALTH_PATH) {
      log.warn({ fault: "overloaded", request_id: requestId, in_flight: inFlight - 1 }, "too many requests in flight: 503");
      return answerAtOnce(response, 503, "The site is very busy right now. Please try again in a few seconds.", retryLater());
    }
    handOver(request, response, pathname, requestId);
  };
  if (!hasBody(request)) return admit();
  whenBodyArrives(request, MAX_REQUEST_BYTES, {
    arrived: admit,
    tooLarge: () => refuseTooLarge(response, requestId, { undeclared: true }, "body passed the size limit while arriving: 413"),
  });
}

function refuseTooLarge(response: ServerResponse, requestId: string, fields: Record<string, unknown>, message: string): void {
  log.warn({ fault: "body_too_large", request_id: requestId, ...fields }, message);
  answerAtOnce(response, 413, "That request is too large.");
}

/**
 * A page's visit beacon (POST) and the <noscript> image (GET) go straight to the visit handler,
 * not through Next: Next's routing alone costs about as much as a whole sign-up, and the beacon
 * must take at least twice the sign-up rate (docs/analytics.md, bench:visits). app/api/visit is
 * the same handler for any other way the app is served.
 */
async function serveVisit(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  const fetchRequest = new Request(`http://${request.headers.host ?? "localhost"}${request.url ?? VISIT_PATH}`, {
    method: request.method,
    headers,
    ...(request.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
  });
  const answer = request.method === "POST" ? await visitHandler().post(fetchRequest) : await visitHandler().pixel(fetchRequest);
  response.statusCode = answer.status;
  answer.headers.forEach((value, name) => response.setHeader(name, value));
  response.end(Buffer.from(await answer.arrayBuffer()));
}

/** Next's handler, with a per-request page policy where the page needs one. */
function handOver(request: IncomingMessage, response: ServerResponse, pathname: string, requestId: string): void {
  if (pathname === VISIT_PATH && (request.method === "POST" || request.method === "GET")) {
    serveVisit(request, response).catch((error: unknown) => {
      log.error({ fault: "unexpected", request_id: requestId, ...errorFields(error) }, "visit handler failed");
      if (!response.headersSent) answerAtOnce(response, 500, "Something went wrong on our side.");
      else response.destroy();
    });
    return;
  }
  // Pages rendered per request get a policy with a nonce of their own (Next reads it from the request's policy).
  const perRequestPage = dev ? undefined : perRequestPageHeaders(pathname);
  if (perRequestPage) {
    const pageHeaders = perRequestPage(randomBytes(16).toString("base64"));
    request.headers["content-security-policy"] = pageHeaders["Content-Security-Policy"];
    for (const [name, value] of Object.entries(pageHeaders)) response.setHeader(name, value);
  }
  handle(request, response).catch((error: unknown) => {
    log.error({ fault: "unexpected", request_id: requestId, ...errorFields(error) }, "request handler failed");
    if (!response.headersSent) answerAtOnce(response, 500, "Something went wrong on our side. Please try again later.");
    else response.destroy();
  });
}

const server = createServer(
  {
    // Node's defaults, written down: a request's headers are at most 16 KiB (431 past that).
    maxHeaderSize: 16 * 1024,
    // A request's headers must arrive within 10 s, and the whole request (body too) within 30 s, so
    // a client sending a byte at a time holds a connection for that long at most, never a slot
    // (bodies are held back until they have arrived: lib/security/request-body.ts).
    headersTimeout: 10_000,
    requestTimeout: 30_000,
    // How often those limits are checked (Node's default is every 30 s).
    connectionsCheckingInterval: 2_000,
  },
  serve,
);

const deliveries = getDeliveryWorker();
let stopOverdueWatch = () => {};
let stopRetentionSweep = () => {};
let stopVisitSweep = () => {};
let stopSearchIndexer = () => {};
let stopBackups = () => {};

// What a newcomer meets most: another server on the port. One sentence with the fix, no stack trace.
server.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EADDRINUSE") log.fatal(`Port ${port} is already in use (another server, perhaps an earlier npm start): stop it, or start on another port with PORT=${port + 1} npm start.`);
  else if (error.code === "EACCES") log.fatal(`Port ${port} needs privileges this user does not have: use a port above 1023 (PORT=3000 npm start) and a proxy in front for 80 or 443.`);
  else log.fatal({ fault: "unexpected", ...errorFields(error) }, "the server could not start listening");
  process.exit(1);
});

server.listen(port, hostname, () => {
  log.info(
    `FieldCrew ${dev ? "development" : "production"} server on http://${hostname ?? "localhost"}:${port}` +
      (dev ? "" : ` (${policies.pageCount} prerendered pages with script hashes)`),
  );
  const data = databaseSettings(env);
  log.info(`Data: ${data.file ? `${path.relative(process.cwd(), data.file) || data.file} (SQLite, ${data.driver})` : `${new URL(env.DATABASE_URL).host} (libSQL server)`}.`);
  log.info("The console: invite yourself with npm run waitlist -- operators add you@example.com, then open the link it prints.");
  for (const line of deliveriesAtStart(env)) log.info(line);
  if (!(env.WAITLIST_BACKUP_DIR && data.file)) log.info("Scheduled backups: off (WAITLIST_BACKUP_DIR is not set). See docs/deployment.md, \"Backups\".");
  // The database opened now, not at the first request: from then on its connection's lock tells
  // `restore` that the site runs (lib/db/worker.mjs). A failure is logged there, and tried again.
  getDatabase().$queryRaw`SELECT 1`.catch(() => {});
  // Picks up whatever is due, including deliveries left by an earlier run or another instance.
  deliveries.start();
  stopOverdueWatch = startOverdueWatch({ deliveries: configuredKinds(env), deliverSoon: () => deliveries.deliverSoon() });
  stopRetentionSweep = startRetentionSweep(env.WAITLIST_RETENTION_DAYS);
  stopVisitSweep = startVisitSweep(env.WAITLIST_RETENTION_DAYS);
  stopSearchIndexer = startSearchIndexer();
  if (env.WAITLIST_BACKUP_DIR && data.file) {
    const schedule = { dir: path.resolve(env.WAITLIST_BACKUP_DIR), intervalMinutes: env.WAITLIST_BACKUP_INTERVAL_MINUTES, keep: env.WAITLIST_BACKUP_KEEP, databaseFile: data.file };
    stopBackups = startBackupSchedule(schedule);
    log.info(`Backups: every ${schedule.intervalMinutes} minutes into ${schedule.dir}, the newest ${schedule.keep} kept.`);
  }
});

/** How long requests in flight, then deliveries in flight, get to finish. */
const REQUESTS_GRACE_MS = 10_000;
const DELIVERIES_GRACE_MS = 5_000;
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
  stopOverdueWatch();
  stopRetentionSweep();
  stopVisitSweep();
  stopSearchIndexer();
  stopBackups();
  // Beacons are answered before they are written: what is queued is written before the database closes.
  await visitHandler().drain().catch((error: unknown) => log.error({ fault: "visit_not_counted", ...errorFields(error) }, "queued visits could not be written"));
  // Each step goes on to the next if it fails (the database may be what is broken).
  await deliveries.stop(DELIVERIES_GRACE_MS).catch((error: unknown) => log.error({ fault: "delivery_worker", ...errorFields(error) }, "handing back deliveries failed"));
  await closeDatabase().catch((error: unknown) => log.error({ fault: "database_unavailable", ...errorFields(error) }, "closing the database failed"));
  log.info(`${signal}: stopped`);
  process.exit(0);
}
process.on("SIGTERM", () => void shutDown("SIGTERM"));
process.on("SIGINT", () => void shutDown("SIGINT"));
