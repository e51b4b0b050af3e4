/**
 * Soak run: 2 rounds of 2,000 valid, unique sign-ups over 16 concurrent
 * connections against the production server (bot checks in test mode, see
 * LOAD_TEST_ENV). Asserts zero 5xx answers and exactly as many rows as 201s;
 * prints throughput, latency and the server's memory before, at its peak and
 * after each round (figures, not assertions: these machines are shared).
 *
 * The server runs with a memory probe (bench/support/memory-probe.cjs) so that
 * "after" can be read both as the OS sees it and after a full collection.
 *
 *   npm run test:soak        SOAK_REQUESTS=5000 SOAK_ROUNDS=4 npm run test:soak
 */
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { ensureBuild, freshDatabase, LOAD_TEST_ENV, startSiteServer, type SiteServer } from "../../bench/support/site-server";
import { uniqueSignupBody } from "../../bench/support/signups";

const PORT = Number(process.env.SOAK_PORT ?? 3231);
const REQUESTS = Number(process.env.SOAK_REQUESTS ?? 2_000);
const CONNECTIONS = 16;
const ROUNDS = Number(process.env.SOAK_ROUNDS ?? 2);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function countRows(databaseFile: string): number {
  const db = new Database(databaseFile, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM waitlist_entries").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function round(server: SiteServer) {
  const statuses = new Map<number, number>();
  let peakMiB = server.rssMiB();
  const sampler = setInterval(() => (peakMiB = Math.max(peakMiB, server.rssMiB())), 100);
  const result = await autocannon({
    url: `${server.url}/api/waitlist`,
    connections: CONNECTIONS,
    amount: REQUESTS,
    timeout: 30,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        setupRequest: (request) => ({ ...request, body: uniqueSignupBody("soak").body }),
        onResponse: (status) => void statuses.set(status, (statuses.get(status) ?? 0) + 1),
      },
    ],
  });
  clearInterval(sampler);
  return { result, statuses, peakMiB };
}

async function main() {
  ensureBuild();
  const databaseFile = freshDatabase("soak");
  const server = await startSiteServer({ port: PORT, databaseFile, env: LOAD_TEST_ENV });
  let failed = false;
  let created = 0;
  try {
    // Warm up (first requests compile routes and fill caches), then take the starting figure.
    for (let i = 0; i < 50; i += 1) {
      const response = await fetch(`${server.url}/api/waitlist`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: uniqueSignupBody("warmup").body,
      });
      if (response.status === 201) created += 1;
    }
    await sleep(2_000);
    const startMiB = server.rssMiB();
    const startGc = await server.memoryAfterGc();
    console.log(
      `server memory after warm-up: ${startMiB.toFixed(1)} MiB RSS; after a full GC: RSS ${startGc.rss} MiB, heap in use ${startGc.heapUsed} MiB`,
    );

    for (let n = 1; n <= ROUNDS; n += 1) {
      const { result, statuses, peakMiB } = await round(server);
      await sleep(5_000); // idle, as after a spike
      const afterMiB = server.rssMiB();
      const afterGc = await server.memoryAfterGc();
      const serverErrors = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);
      created += statuses.get(201) ?? 0;
      const rows = countRows(databaseFile);
      const ok =
        serverErrors === 0 && result.errors === 0 && result.timeouts === 0 && rows === created && (statuses.get(201) ?? 0) === REQUESTS;
      if (!ok) failed = true;
      console.log(
        `round ${n}: ${REQUESTS} sign-ups, ${CONNECTIONS} connections | ${result.requests.average.toFixed(0)} req/s | ` +
          `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms | statuses ${JSON.stringify(Object.fromEntries(statuses))} | ` +
          `5xx ${serverErrors}, connection errors ${result.errors}, timeouts ${result.timeouts} | ` +
          `rows ${rows} = 201s so far ${created}: ${rows === created ? "yes" : "NO"} | ` +
          `memory start ${startMiB.toFixed(1)} MiB, peak ${peakMiB.toFixed(1)} MiB, after ${afterMiB.toFixed(1)} MiB ` +
          `(${afterMiB - startMiB >= 0 ? "+" : ""}${(afterMiB - startMiB).toFixed(1)}); after a full GC: RSS ${afterGc.rss} MiB, ` +
          `heap in use ${afterGc.heapUsed} MiB (start ${startGc.heapUsed}) | ${ok ? "OK" : "FAILED"}`,
      );
    }
  } finally {
    await server.stop();
  }
  if (failed) {
    console.error("Soak run FAILED: see the rounds above.");
    process.exit(1);
  }
  console.log("Soak run passed: no 5xx, every 201 stored, nothing stored without one.");
}

await main();
