/**
 * Visit beacon load benchmark (docs/analytics.md): the beacon endpoint must take at least
 * twice the sign-up rate. One production server (server.ts), 32 connections on loopback,
 * rounds that alternate between:
 *   - sign-ups: POST /api/waitlist, every request a new valid sign-up (201);
 *   - beacons: POST /api/visit, page views from 5,000 different visitors (one per /24, so
 *     no address meets the per-address cap), with campaigns and referrers, answered 204.
 * Alternating keeps machine drift on both alike. Prints each round and the ratio of the
 * medians, and checks afterwards that every 204 was counted (views in traffic_days).
 *
 *   npm run bench:visits      BENCH_SECONDS=10 BENCH_ROUNDS=3 by default
 */
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { uniqueSignupBody } from "./support/signups";
import { ensureBuild, freshDatabase, LOAD_TEST_ENV, startSiteServer, type SiteServer } from "./support/site-server";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 32;
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const PAGES = ["/", "/about", "/careers", "/join"];

type Measurement = { rps: number; p99: number; ok: number; other: number };

let sequence = 0;

async function load(server: SiteServer, kind: "signups" | "beacons"): Promise<Measurement> {
  let ok = 0;
  let other = 0;
  const expected = kind === "signups" ? 201 : 204;
  const result = await autocannon({
    url: server.url + (kind === "signups" ? "/api/waitlist" : "/api/visit"),
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 10,
    requests: [
      {
        method: "POST",
        setupRequest: (request) => {
          if (kind === "signups")
            return { ...request, headers: { "content-type": "application/json" }, body: uniqueSignupBody("visits-bench").body };
          sequence += 1;
          const visitor = sequence % 5_000;
          const body = JSON.stringify({
            type: "view",
            page: PAGES[sequence % PAGES.length],
            referrer: sequence % 3 ? "https://www.google.com/" : undefined,
            utm_source: sequence % 2 ? "newsletter" : undefined,
            utm_campaign: `campaign-${sequence % 7}`,
          });
          return {
            ...request,
            headers: {
              "content-type": "text/plain;charset=UTF-8",
              "user-agent": CHROME,
              "x-forwarded-for": `10.${visitor >> 8}.${visitor & 255}.9`,
              origin: server.url,
            },
            body,
          };
        },
        onResponse: (status) => {
          if (status === expected) ok += 1;
          else other += 1;
        },
      },
    ],
  });
  return { rps: result.requests.average, p99: result.latency.p99, ok, other: other + result.errors + result.timeouts };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

ensureBuild();
const databaseFile = freshDatabase("bench-visits");
const server = await startSiteServer({ port: 3270, databaseFile, env: { ...LOAD_TEST_ENV, TRUST_PROXY_HOPS: "1" } });
const results: Record<"signups" | "beacons", Measurement[]> = { signups: [], beacons: [] };
try {
  console.log(`${ROUNDS} rounds of ${SECONDS} s each, ${CONNECTIONS} connections, one server on an empty database`);
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const kind of ["signups", "beacons"] as const) {
      const measured = await load(server, kind);
      results[kind].push(measured);
      console.log(
        `round ${round}  ${kind.padEnd(8)} ${measured.rps.toFixed(0).padStart(6)} req/s  p99 ${String(measured.p99).padStart(4)} ms  answered ${measured.ok}, other ${measured.other}`,
      );
    }
  }
} finally {
  await server.stop();
}

const signups = median(results.signups.map((m) => m.rps));
const beacons = median(results.beacons.map((m) => m.rps));
const answered = results.beacons.reduce((sum, m) => sum + m.ok, 0);
const db = new Database(databaseFile, { readonly: true });
const counted = (
  db.prepare("SELECT coalesce(sum(events), 0) AS n FROM traffic_days WHERE step = 'view' AND dimension = 'site'").get() as { n: number }
).n;
db.close();
console.log(
  `\nmedian sign-ups ${signups.toFixed(0)} req/s, beacons ${beacons.toFixed(0)} req/s: ratio ${(beacons / signups).toFixed(2)} (target at least 2.00)`,
);
// Requests still in flight when a round ended are counted by the server but not tallied here: at most one per connection.
const allCounted = counted >= answered && counted - answered <= CONNECTIONS * ROUNDS;
console.log(
  `beacons answered 204: ${answered}; views counted: ${counted} (${allCounted ? "every answered one, plus those in flight at a round's end" : "NOT every answered one"})`,
);
if (!allCounted || results.beacons.some((m) => m.other > 0)) process.exitCode = 1;
