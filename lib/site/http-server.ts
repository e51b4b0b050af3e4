/**
 * The site's node:http server around the front door (./front-door.ts): its limits on slow and idle
 * clients, its listen queue, the one sentence for a port it cannot have, and its shutdown.
 */
import "server-only";
import { createServer, type RequestListener, type Server } from "node:http";
import { closeDatabase } from "../db";
import { markShuttingDown } from "../health";
import { errorFields, log } from "../log";
import type { BackgroundJobs } from "./background-jobs";
import { answerClientErrors } from "./client-errors";

/** The server with its limits on clients (docs/security.md, "Hostile clients"). */
export function siteServer(frontDoor: RequestListener): Server {
  const server = createServer(
    {
      // Node's defaults, written down: a request's headers are at most 16 KiB (431 past that).
      maxHeaderSize: 16 * 1024,
      // A request's headers must arrive within 20 s, and the whole request within 30 s: a client
      // sending a byte at a time holds a connection for that long at most, never a slot.
      headersTimeout: 20_000,
      requestTimeout: 30_000,
      // How often those limits are checked (Node's default is every 30 s).
      connectionsCheckingInterval: 2_000,
    },
    frontDoor,
  );
  // Longer than a proxy keeps an idle connection (nginx's upstream keepalive_timeout and most load
  // balancers' idle timeouts are 60 s), so the proxy always closes it first: a request the proxy
  // sends on a connection the server is closing meets a reset, and a proxy does not retry a POST.
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  return server;
}

/**
 * Connections not yet accepted that the kernel may queue: a launch spike opens thousands at once,
 * and past the queue a client is reset instead of answered 503. The kernel caps it at
 * net.core.somaxconn.
 */
const LISTEN_BACKLOG = 4096;

/** Listens on `port`; a port in use or one that needs privileges ends the process with one sentence and the fix. */
export function listen(server: Server, port: number, host: string | undefined, listening: () => void): void {
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
  server.listen({ port, host, backlog: LISTEN_BACKLOG }, listening);
}

/** How long requests in flight get to finish. */
const REQUESTS_GRACE_MS = 10_000;
/**
 * The whole shutdown's limit, below systemd's TimeoutStopSec (30 s, docs/deployment.md): past it
 * the process exits non-zero whatever is still waiting (a hung database), so the supervisor restarts it.
 */
const SHUTDOWN_DEADLINE_MS = 25_000;

/**
 * On SIGTERM or SIGINT: no new connections, requests in flight finished (each sign-up answered
 * only after its batch committed), the background jobs stopped in order, the database closed,
 * then exit 0; past SHUTDOWN_DEADLINE_MS, exit 1.
 */
export function shutDownOnSignals(server: Server, jobs: () => BackgroundJobs | undefined): void {
  let stopping = false;
  async function shutDown(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: shutting down (no new connections; finishing requests and deliveries in flight)`);
    setTimeout(() => {
      log.error(
        { fault: "shutdown_deadline", deadline_ms: SHUTDOWN_DEADLINE_MS },
        `${signal}: not stopped within the deadline; exiting now`,
      );
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    markShuttingDown();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, REQUESTS_GRACE_MS).unref())]);
    server.closeAllConnections();
    await jobs()?.stop();
    await closeDatabase().catch((error: unknown) =>
      log.error({ fault: "database_unavailable", ...errorFields(error) }, "closing the database failed"),
    );
    log.info(`${signal}: stopped`);
    process.exit(0);
  }
  process.on("SIGTERM", () => void shutDown("SIGTERM"));
  process.on("SIGINT", () => void shutDown("SIGINT"));
}
