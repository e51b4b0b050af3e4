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
 * It also runs this instance's delivery worker (lib/outbox/worker.ts), and on
 * SIGTERM or SIGINT shuts down gracefully: no new connections, requests in
 * flight (and so their sign-ups' commits) finished, deliveries it holds
 * finished or handed back, then the database closed (docs/deployment.md).
 *
 * Usage: tsx server.ts [--dev] [--port N]   (PORT and HOSTNAME also work)
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import nextEnv from "@next/env";
import { closeDatabase } from "./lib/db";
import { parseEnv } from "./lib/env";
import { markShuttingDown } from "./lib/health";
import { deliveriesAtStart, getDeliveryWorker } from "./lib/outbox/instance";
import { CLIENT_ADDRESS_HEADER, clientAddressOf } from "./lib/security/client-address";
import { securityHeaders, visitorPageHeaders } from "./lib/security/headers";
import { developmentPolicies, loadPagePolicies } from "./lib/security/page-policies";
import { ENTRY_PAGE_PATH } from "./lib/waitlist/entry-link";

const dev = process.argv.includes("--dev");
const portFlag = process.argv.indexOf("--port");
const port = Number(portFlag > -1 ? process.argv[portFlag + 1] : (process.env.PORT ?? 3000));
const hostname = process.env.HOSTNAME || undefined;

// As `next start` and `next dev` do; it must be set before Next (and React) load.
Object.assign(process.env, { NODE_ENV: dev ? "development" : "production" });
nextEnv.loadEnvConfig(process.cwd(), dev);
const env = parseEnv();

const { default: next } = await import("next");
const app = next({ dev, dir: process.cwd(), port, hostname });
const handle = app.getRequestHandler();
await app.prepare();

const policies = dev ? developmentPolicies() : loadPagePolicies(".next");
const headers = Object.entries(securityHeaders(!dev));

const server = createServer((request, response) => {
  request.headers[CLIENT_ADDRESS_HEADER] = clientAddressOf(
    request.headers["x-forwarded-for"],
    request.socket.remoteAddress,
    env.TRUST_PROXY_HOPS,
  );
  const pathname = (request.url ?? "/").split("?")[0]!;
  response.setHeader("Content-Security-Policy", policies.forPath(pathname));
  for (const [name, value] of headers) response.setHeader(name, value);
  if (!dev && pathname.startsWith(`${ENTRY_PAGE_PATH}/`)) {
    const visitorPage = visitorPageHeaders(randomBytes(16).toString("base64"));
    // Next reads the nonce for the page's scripts from the request's policy.
    request.headers["content-security-policy"] = visitorPage["Content-Security-Policy"];
    for (const [name, value] of Object.entries(visitorPage)) response.setHeader(name, value);
  }
  void handle(request, response);
});

const deliveries = getDeliveryWorker();

server.listen(port, hostname, () => {
  console.log(
    `FieldCrew ${dev ? "development" : "production"} server on http://${hostname ?? "localhost"}:${port}` +
      (dev ? "" : ` (${policies.pageCount} prerendered pages with script hashes)`),
  );
  for (const line of deliveriesAtStart(env)) console.log(line);
  // Picks up whatever is due, including deliveries left by an earlier run or another instance.
  deliveries.start();
});

/** How long requests in flight, then deliveries in flight, get to finish. */
const REQUESTS_GRACE_MS = 10_000;
const DELIVERIES_GRACE_MS = 5_000;

let stopping = false;

async function shutDown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: shutting down (no new connections; finishing requests and deliveries in flight)`);
  markShuttingDown();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // A request in flight is answered only after its sign-up's batch has committed.
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, REQUESTS_GRACE_MS).unref())]);
  server.closeAllConnections();
  await deliveries.stop(DELIVERIES_GRACE_MS);
  await closeDatabase();
  console.log(`${signal}: stopped`);
  process.exit(0);
}
process.on("SIGTERM", () => void shutDown("SIGTERM"));
process.on("SIGINT", () => void shutDown("SIGINT"));
