/**
 * Sign-up load benchmark (docs/performance.md). On loopback, 32 connections of
 * unique valid sign-ups against, in the same run:
 *   - the production server's POST /api/waitlist (server.ts, the real route);
 *   - the floor: an empty POST route in the same build that only reads the
 *     body (app/api/bench/floor, switched on for this run only);
 *   - context: a bare node:http + zod + better-sqlite3 server (bench/baseline-server.ts).
 * Sign-up and floor rounds alternate so that machine noise hits both alike.
 * Each round also floods the route with one email (every request a duplicate
 * with its own fresh question, answered 409): a duplicate must not be the slow path.
 * Bot checks run in test mode (LOAD_TEST_ENV: a secret the load generator
 * knows, no minimum time, a raised limit), set in the server's environment,
 * which no visitor can reach. Every request is a different sign-up with its own
 * freshly signed question, for all three targets alike.
 *
 * With BENCH_DELIVERIES=fast|slow|refusing (launch day: `npm run bench:launch` runs all three) the
 * server owes a confirmation email and a webhook for every sign-up, delivered to an SMTP server and
 * a webhook receiver in a process of the benchmark's own at niceness 19 (./support/launch-receivers.ts),
 * with the hourly mail caps raised as a launch would raise them. The mail server accepts at once ("fast"), after
 * 200 ms ("slow"), or refuses every tenth new message once ("refusing": a retry storm). Before each
 * floor run the outbox is left to empty, so the floor is never measured while deliveries owed by
 * the sign-ups before it are still going out; how long that took after the load ended is printed,
 * and how many deliveries were made while the sign-ups ran (the worker yields to a saturated site),
 * and at the end the script checks that every delivery arrived exactly once.
 *
 * With BENCH_UPDATE=N as well (issue 60; bench:launch's fourth run), the site's list is first seeded
 * with N entries and an update to all of them is queued (the time the one statement took is
 * printed). It drains while each round's sign-ups run and is paused for the floor and duplicate
 * runs, so the floor is still measured with no delivery going out; what it sent during each
 * sign-up run is printed. After the rounds the rest drains with no load, while the server's
 * memory is sampled every second: its start, peak and end, and the messages per second.
 *
 *   npm run bench:signups      BENCH_SECONDS=10 BENCH_ROUNDS=5 by default
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { heldText, type Held } from "./support/held";
import { mailModeFromEnv, startLaunchReceivers } from "./support/launch-receivers";
import { signupBodyFor, uniqueSignupBody } from "./support/signups";
import { copyDatabase, ensureBuild, freshDatabase, LOAD_TEST_ENV, startSiteServer, type SiteServer } from "./support/site-server";
import { createDatabase } from "@/lib/db";
import { changeUpdate, parseUpdate, sendUpdate } from "@/lib/updates/updates";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
// 3 rounds gave ratios that swung by more than the targets' margin between runs of the same code.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const FLOODED_EMAIL = "same.person@load.example";
const DELIVERIES = mailModeFromEnv();
/** Issue 43's bound: every delivery made within this long after the load ended. */
const DELIVERED_WITHIN_S = 30;
/**
 * A database to run the site's server on instead of an empty one (copied first), such as a
 * million seeded sign-ups (npm run bench:operator makes one): sign-ups with the console's
 * triggers and indexes on a full list, against the same build's empty route.
 */
const SEEDED_DATABASE = process.env.BENCH_SIGNUPS_DATABASE;
/** Entries an update goes to while the sign-ups run (0: none). */
const UPDATE_ENTRIES = Number(process.env.BENCH_UPDATE ?? 0);
const receivers = DELIVERIES ? await startLaunchReceivers(DELIVERIES) : undefined;
const receiverReport = () => receivers!.report();
const CONNECTIONS = 32;

type Measurement = { rps: number; p50: number; p99: number; errors: number; created: number; peakMiB: number };

/** Emails that got a 201 from the sign-up route, to look for in the database afterwards. */
const acknowledged: string[] = [];

type Traffic = "unique" | "duplicates";

/** `unique`: every request a new sign-up (201). `duplicates`: every request FLOODED_EMAIL again (409). */
/** When each measured run's load was on (ms since 1970): what the slow-query summary tells apart. */
const loadWindows: { from: number; to: number }[] = [];

async function load(server: SiteServer, path: string, seconds: number, traffic: Traffic = "unique"): Promise<Measurement> {
  const expected = traffic === "unique" ? 201 : 409;
  const statuses = new Map<number, number>();
  let peakMiB = server.rssMiB();
  const sampler = setInterval(() => (peakMiB = Math.max(peakMiB, server.rssMiB())), 100);
  const from = Date.now();
  const result = await autocannon({
    url: server.url + path,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        setupRequest: (request, context) => {
          const { email, body } = traffic === "unique" ? uniqueSignupBody("bench") : signupBodyFor(FLOODED_EMAIL);
          (context as { email?: string }).email = email;
          return { ...request, body };
        },
        onResponse: (status, _body, context) => {
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status === 201 && path === "/api/waitlist") acknowledged.push((context as { email: string }).email);
        },
      },
    ],
  });
  clearInterval(sampler);
  loadWindows.push({ from, to: Date.now() });
  const created = statuses.get(201) ?? 0;
  const refused = [...statuses].filter(([status]) => status !== expected).reduce((sum, [, n]) => sum + n, 0);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: refused + result.errors + result.timeouts,
    created,
    peakMiB,
  };
}

/**
 * Waits (up to 2 minutes) until nothing is owed or pending, then says how long after
 * `loadEnded` the last delivery reached the receivers (0 if none arrived after it), or null if
 * deliveries were still pending at the deadline.
 */
async function deliveriesDone(file: string, loadEnded: number): Promise<number | null> {
  const db = new Database(file, { readonly: true });
  try {
    // Pending rows (not an update's: it drains on its own), and entries not yet owed their deliveries (past the worker's mark).
    const pending = db
      .prepare(
        `SELECT (SELECT count(*) FROM outbox WHERE status = 'pending' AND update_id IS NULL)
              + (SELECT count(*) FROM waitlist_entries WHERE id > (SELECT owed_up_to FROM signup_deliveries_state))`,
      )
      .pluck();
    const deadline = Date.now() + 120_000;
    while ((pending.get() as number) > 0) {
      if (Date.now() > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    db.close();
  }
  const { lastArrival } = await receiverReport();
  return Math.max(0, lastArrival - loadEnded) / 1000;
}

/**
 * The deliveries owed since the run began (outbox rows after `firstRowid`), by status and kind, and
 * how many of them the receivers accepted other than exactly once; and accepted ids that are no row.
 */
async function checkDelivered(file: string, firstRowid: number) {
  const { accepted, refused } = await receiverReport();
  const times = new Map(accepted);
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare("SELECT id, kind, status, event FROM outbox WHERE rowid > ?").all(firstRowid) as {
      id: string;
      kind: string;
      status: string;
      event: string;
    }[];
    const ids = new Set(rows.map((row) => row.id));
    // A sign-up's own deliveries; on a seeded list, entries crossing their 48 hours also owe an
    // overdue webhook during the run, which must arrive once like the rest.
    const created = rows.filter((row) => row.event === "created");
    return {
      emails: created.filter((row) => row.kind === "email").length,
      webhooks: created.filter((row) => row.kind === "webhook").length,
      others: rows.length - created.length,
      delivered: rows.filter((row) => row.status === "delivered").length,
      notOnce: rows.filter((row) => times.get(row.id) !== 1).length,
      strangers: accepted.filter(([id]) => !ids.has(id)).length,
      refused,
    };
  } finally {
    db.close();
  }
}

/** Deliveries made so far (outbox rows delivered), read beside the running site. */
function deliveredCount(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT count(*) FROM outbox WHERE status = 'delivered'").pluck().get() as number;
  } finally {
    db.close();
  }
}

/** An update's emails delivered so far (0 without one). */
function updateDelivered(file: string, updateId: number | undefined): number {
  if (updateId === undefined) return 0;
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT count(*) FROM outbox WHERE update_id = ? AND status = 'delivered'").pluck().get(updateId) as number;
  } finally {
    db.close();
  }
}

type UpdateDrain = {
  seconds: number;
  sent: number;
  perSecond: number;
  rssMiB: { start: number; peak: number; end: number; samples: number[] };
};

/** Resumes the update and waits (up to 20 minutes) until none of it is pending, sampling the server's memory each second. */
async function drainUpdate(server: SiteServer, db: ReturnType<typeof createDatabase>, updateId: number): Promise<UpdateDrain> {
  const before = updateDelivered(siteDb, updateId);
  const samples = [server.rssMiB()];
  const started = Date.now();
  await changeUpdate(db, updateId, "resume", benchActor);
  const file = new Database(siteDb, { readonly: true });
  const pending = file.prepare("SELECT count(*) FROM outbox WHERE update_id = ? AND status = 'pending'").pluck();
  try {
    while ((pending.get(updateId) as number) > 0 && Date.now() - started < 20 * 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      samples.push(server.rssMiB());
    }
  } finally {
    file.close();
  }
  const seconds = (Date.now() - started) / 1000;
  const sent = updateDelivered(siteDb, updateId) - before;
  return {
    seconds,
    sent,
    perSecond: sent / seconds,
    rssMiB: { start: samples[0]!, peak: Math.max(...samples), end: samples.at(-1)!, samples },
  };
}

function lastRowid(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT coalesce(max(rowid), 0) FROM outbox").pluck().get() as number) ?? 0;
  } finally {
    db.close();
  }
}

/** Rows in the file, and how many acknowledged emails are not among them. */
function checkStored(file: string): { rows: number; missing: number } {
  const db = new Database(file, { readonly: true });
  try {
    const stored = new Set((db.prepare("SELECT email FROM waitlist_entries").all() as { email: string }[]).map((row) => row.email));
    return { rows: stored.size, missing: acknowledged.filter((email) => !stored.has(email)).length };
  } finally {
    db.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function summary(name: string, runs: Measurement[]) {
  return {
    name,
    rps: median(runs.map((run) => run.rps)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    created: runs.reduce((sum, run) => sum + run.created, 0),
    peakMiB: Math.max(...runs.map((run) => run.peakMiB)),
    each: runs.map((run) => run.rps.toFixed(0)).join(" / "),
  };
}

/**
 * The longest an outbox statement (claim, outcomes, owing, prune) held the database under load and
 * between runs, with how much of that its thread ran on a CPU and how much it waited for one.
 */
const outboxHeld: { underLoad: Held; betweenRuns: Held } = { underLoad: { ms: 0 }, betweenRuns: { ms: 0 } };
const OUTBOX_STATEMENT =
  /^(?:\/\*[^*]*\*\/)*\s*(?:WITH due|UPDATE outbox|UPDATE signup_deliveries_state|DELETE FROM outbox|INSERT INTO overdue_raises|transaction: UPDATE waitlist_entries SET overdue_at)/;

/**
 * The server's slow_query lines (lib/db), grouped by statement: what kept the database thread, and
 * so every sign-up waiting for it, busy for LOGGED_SLOWER_THAN_MS or more. A p99 above the floor's starts here.
 */
function printSlowQueries(output: string): void {
  const underLoad = (at: number) => loadWindows.some(({ from, to }) => at >= from && at <= to);
  type Seen = { count: number; totalMs: number; longest: Held; drainingCount: number; drainingLongest: Held };
  const byStatement = new Map<string, Seen>();
  for (const line of output.split("\n")) {
    if (!line.includes('"slow_query"')) continue;
    const { slow_query: slow, time } = JSON.parse(line) as {
      slow_query: { op: string; ms: number; cpu_ms?: number; queued_ms?: number; statement?: string };
      time: string;
    };
    const key = (slow.statement ?? slow.op).slice(0, 90);
    const held: Held = { ms: slow.ms, cpuMs: slow.cpu_ms, queuedMs: slow.queued_ms };
    const seen = byStatement.get(key) ?? { count: 0, totalMs: 0, longest: { ms: 0 }, drainingCount: 0, drainingLongest: { ms: 0 } };
    const longer = (than: Held) => (held.ms > than.ms ? held : than);
    const during = underLoad(Date.parse(time));
    if (during) byStatement.set(key, { ...seen, count: seen.count + 1, totalMs: seen.totalMs + slow.ms, longest: longer(seen.longest) });
    else byStatement.set(key, { ...seen, drainingCount: seen.drainingCount + 1, drainingLongest: longer(seen.drainingLongest) });
    if (OUTBOX_STATEMENT.test(key)) {
      if (during) outboxHeld.underLoad = longer(outboxHeld.underLoad);
      else outboxHeld.betweenRuns = longer(outboxHeld.betweenRuns);
    }
  }
  // Under load: while a measured run's requests were coming (what visitors wait behind). Otherwise:
  // warm-up, and the deliveries going out between runs with no visitor waiting. The longest of each
  // is split into the database thread's CPU time and its wait for a CPU (Linux): a statement that
  // waited for a CPU was slow because the machine was busy, not because of its own work.
  console.log(
    `\nthe database thread busy ${LOGGED_SLOWER_THAN_MS} ms or more at once (slow_query): ${byStatement.size === 0 ? "never" : ""}`,
  );
  const rows = [...byStatement].sort((a, b) => b[1].totalMs - a[1].totalMs);
  if (rows.length > 0) console.log(`  ${"under load: count, longest, total".padEnd(58)} ${"between runs: count, longest".padEnd(40)}`);
  for (const [statement, seen] of rows) {
    const during =
      seen.count === 0 ? "-" : `${String(seen.count).padStart(5)} x, max ${heldText(seen.longest)}, total ${seen.totalMs.toFixed(0)} ms`;
    const between = seen.drainingCount === 0 ? "-" : `${String(seen.drainingCount).padStart(4)} x, max ${heldText(seen.drainingLongest)}`;
    console.log(`  ${during.padEnd(58)} ${between.padEnd(40)} ${statement}`);
  }
}

ensureBuild(true);
// A seeded database is copied whole first; otherwise a fresh, migrated one.
const siteDb = SEEDED_DATABASE ? copyDatabase(SEEDED_DATABASE, "bench-signups") : freshDatabase("bench-signups");
const baselineDb = freshDatabase("bench-baseline");
if (UPDATE_ENTRIES > 0) {
  console.log(`Seeding ${UPDATE_ENTRIES} entries for the update ...`);
  execFileSync(path.join("node_modules", ".bin", "tsx"), ["prisma/seed.ts", "--count", String(UPDATE_ENTRIES)], {
    env: { ...process.env, DATABASE_URL: `file:${siteDb}` },
    stdio: "ignore",
  });
}
/** The bench's own connection, as the operator tool's: it sends the update, pauses and resumes it. */
const operatorDb = UPDATE_ENTRIES > 0 ? createDatabase({ driver: "better-sqlite3", file: siteDb }) : undefined;
const benchActor = { email: "shell (bench)", operatorId: null };
let update: { id: number; queued: number; queuedMs: number } | undefined;
/** Update emails sent during each round's sign-ups. */
const updateSentDuringSignups: number[] = [];
const updateSent = () => updateDelivered(siteDb, update?.id);
/** What held the database thread for longer than this during the runs is printed at the end (the server's slow_query log). */
const LOGGED_SLOWER_THAN_MS = process.env.WAITLIST_SLOW_QUERY_MS ?? "20";
const site = await startSiteServer({
  port: 3243,
  databaseFile: siteDb,
  env: { ...LOAD_TEST_ENV, BENCH_FLOOR_ROUTE: "1", WAITLIST_SLOW_QUERY_MS: LOGGED_SLOWER_THAN_MS, ...receivers?.env },
  logFile: path.resolve(".tmp", "bench-signups", "server.log"),
});
const signupRuns: Measurement[] = [];
const floorRuns: Measurement[] = [];
const duplicateRuns: Measurement[] = [];
let baselineRuns: Measurement[] = [];
/** With deliveries: how long after each round's load (sign-ups, then duplicates) the last delivery arrived. */
const drainSeconds: (number | null)[] = [];
/** With an update: the rest of it draining after the rounds. */
let updateDrain: UpdateDrain | undefined;
/** With deliveries: how many were made while each round's sign-ups ran (the worker yields to a saturated site). */
const deliveredDuringSignups: number[] = [];
const firstOutboxRow = lastRowid(siteDb);
const entriesBefore = checkStored(siteDb).rows;
try {
  console.log(`Warming up (${CONNECTIONS} connections, 3 s each) ...`);
  await load(site, "/api/waitlist", 3);
  await load(site, "/api/bench/floor", 3);
  // The flooded email's first sign-up, so that every request of the duplicate runs is a 409.
  await fetch(`${site.url}/api/waitlist`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: signupBodyFor(FLOODED_EMAIL).body,
  });
  if (DELIVERIES) await deliveriesDone(siteDb, Date.now());
  if (operatorDb) {
    const parsed = parseUpdate({ subject: "FieldCrew opens on March 1", body: "Hello {{name}},\n\nFieldCrew opens on March 1." });
    if ("problems" in parsed) throw new Error(JSON.stringify(parsed.problems));
    const started = performance.now();
    const sent = await sendUpdate(operatorDb, parsed.input, `bench-${Date.now()}`, benchActor);
    update = { id: sent.id, queued: sent.queued, queuedMs: performance.now() - started };
    await changeUpdate(operatorDb, sent.id, "pause", benchActor);
    console.log(`An update to ${sent.queued} entries queued in ${update.queuedMs.toFixed(0)} ms; it drains during each round's sign-ups.`);
  }
  for (let round = 1; round <= ROUNDS; round += 1) {
    floorRuns.push(await load(site, "/api/bench/floor", SECONDS));
    const deliveredBefore = DELIVERIES ? deliveredCount(siteDb) : 0;
    const updateBefore = updateSent();
    if (operatorDb && update) await changeUpdate(operatorDb, update.id, "resume", benchActor);
    signupRuns.push(await load(site, "/api/waitlist", SECONDS));
    if (operatorDb && update) {
      await changeUpdate(operatorDb, update.id, "pause", benchActor);
      updateSentDuringSignups.push(updateSent() - updateBefore);
    }
    if (DELIVERIES) deliveredDuringSignups.push(deliveredCount(siteDb) - deliveredBefore - (updateSentDuringSignups.at(-1) ?? 0));
    duplicateRuns.push(await load(site, "/api/waitlist", SECONDS, "duplicates"));
    // The next floor run starts once the outbox is empty: never measured while deliveries go out.
    if (DELIVERIES) drainSeconds.push(await deliveriesDone(siteDb, Date.now()));
    console.log(
      `round ${round}: floor ${floorRuns.at(-1)!.rps.toFixed(0)} req/s, sign-ups ${signupRuns.at(-1)!.rps.toFixed(0)} req/s, ` +
        `duplicates ${duplicateRuns.at(-1)!.rps.toFixed(0)} req/s` +
        (DELIVERIES
          ? `; ${deliveredDuringSignups.at(-1)} delivered during the sign-ups, the last delivery ${drainSeconds.at(-1)?.toFixed(1) ?? "NOT within 120"} s after the load`
          : "") +
        (update ? `; ${updateSentDuringSignups.at(-1)} update emails sent during the sign-ups` : ""),
    );
  }
  if (operatorDb && update) updateDrain = await drainUpdate(site, operatorDb, update.id);
} finally {
  await operatorDb?.$disconnect();
  await site.stop();
}

const baseline = await startSiteServer({ port: 3244, databaseFile: baselineDb, script: "bench/baseline-server.ts" });
try {
  await load(baseline, "/", 3);
  baselineRuns = [await load(baseline, "/", SECONDS), await load(baseline, "/", SECONDS)];
} finally {
  await baseline.stop();
}

const { rows, missing } = checkStored(siteDb);
const results = [
  summary("POST /api/waitlist (sign-up)", signupRuns),
  summary("empty route, same build (floor)", floorRuns),
  summary("one email again and again (409)", duplicateRuns),
  summary("bare node:http + zod + SQLite", baselineRuns),
];
const [signups, floor, duplicates] = results as [ReturnType<typeof summary>, ReturnType<typeof summary>, ReturnType<typeof summary>];

console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per run, medians of ${ROUNDS} alternating runs (baseline: 2 runs)\n`);
console.log("target                            req/s   p50 ms   p99 ms   errors   peak RSS MiB   each run req/s");
for (const r of results) {
  console.log(
    `${r.name.padEnd(32)} ${r.rps.toFixed(0).padStart(6)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.errors).padStart(8)} ${r.peakMiB.toFixed(0).padStart(14)}   ${r.each}`,
  );
}
// Each round's sign-up run follows its floor run within seconds; on a machine whose speed drifts,
// the median of those per-round ratios is the steadier figure of the two.
const perRound = signupRuns.map((run, i) => run.rps / floorRuns[i]!.rps);
const p99PerRound = signupRuns.map((run, i) => run.p99 / floorRuns[i]!.p99);
// Issue 29's targets: 0.90 of the floor on better-sqlite3 (0.85 on libSQL), p99 within 1.15 of its.
const throughputTarget = process.env.DATABASE_DRIVER === "libsql" ? 0.85 : 0.9;
console.log(
  `\nsign-ups / floor: throughput ${(signups.rps / floor.rps).toFixed(3)} (target >= ${throughputTarget.toFixed(2)}), ` +
    `p99 ${(signups.p99 / floor.p99).toFixed(3)} (target <= 1.15)`,
);
console.log(`  per round: ${perRound.map((ratio) => ratio.toFixed(3)).join(" / ")}; median ${median(perRound).toFixed(3)}`);
console.log(`  p99 per round: ${p99PerRound.map((ratio) => ratio.toFixed(3)).join(" / ")}; median ${median(p99PerRound).toFixed(3)}`);
console.log(
  `duplicates / sign-ups: throughput ${(duplicates.rps / signups.rps).toFixed(3)} (target >= 1: no slower), ` +
    `p99 ${(duplicates.p99 / signups.p99).toFixed(3)}`,
);
// Requests still in flight when a run's time is up are stored but never answered, so rows may
// exceed the 201s by up to the number of connections per run; an answered sign-up must never be missing.
console.log(
  `rows after the run: ${rows}; sign-ups answered 201: ${acknowledged.length}; answered but not stored: ${missing}` +
    ` (${missing === 0 ? "every answered sign-up stored" : "LOST SIGN-UPS"})`,
);
printSlowQueries(site.output());
let deliveryProblem = false;
if (DELIVERIES) {
  const { emails, webhooks, others, delivered, notOnce, strangers, refused } = await checkDelivered(siteDb, firstOutboxRow);
  const newEntries = rows - entriesBefore;
  const latest = Math.max(...drainSeconds.map((seconds) => seconds ?? Number.POSITIVE_INFINITY));
  deliveryProblem =
    emails !== newEntries || webhooks !== newEntries || delivered !== emails + webhooks + others || notOnce > 0 || strangers > 0;
  console.log(
    `\ndeliveries (mail server: ${DELIVERIES}${refused > 0 ? `, ${refused} refused once` : ""}): ${emails} emails and ${webhooks} webhooks owed for ${newEntries} new entries` +
      `${others > 0 ? ` and ${others} other deliveries (overdue webhooks${update ? ", the update" : ""})` : ""}; ` +
      `delivered ${delivered}; accepted other than exactly once: ${notOnce}; accepted but never owed: ${strangers}` +
      ` (${deliveryProblem ? "PROBLEM" : "every delivery made once"})`,
  );
  console.log(
    `  last delivery after each round's load: ${drainSeconds.map((seconds) => (seconds === null ? "-" : seconds.toFixed(1))).join(" / ")} s; ` +
      `latest ${Number.isFinite(latest) ? latest.toFixed(1) : "NOT within 120"} s (target <= ${DELIVERED_WITHIN_S})`,
  );
  // The worker yields to a saturated site: a few of each kind at each sweep, the rest once the load eases.
  console.log(`  delivered while each round's sign-ups ran: ${deliveredDuringSignups.join(" / ")}`);
}
if (update && updateDrain) {
  const { rssMiB } = updateDrain;
  const tenths = Array.from(
    { length: 11 },
    (_, i) => rssMiB.samples[Math.min(rssMiB.samples.length - 1, Math.round((i * (rssMiB.samples.length - 1)) / 10))]!,
  );
  console.log(
    `\nupdate to ${update.queued} entries: queued in ${update.queuedMs.toFixed(0)} ms (one statement); ` +
      `sent during each round's sign-ups: ${updateSentDuringSignups.join(" / ")}; ` +
      `the rest (${updateDrain.sent}) drained in ${updateDrain.seconds.toFixed(0)} s, ${updateDrain.perSecond.toFixed(0)} a second`,
  );
  console.log(
    `  server RSS while it drained: start ${rssMiB.start.toFixed(0)} MiB, peak ${rssMiB.peak.toFixed(0)}, end ${rssMiB.end.toFixed(0)}; ` +
      `at each tenth of the drain: ${tenths.map((mib) => mib.toFixed(0)).join(" / ")}`,
  );
}
await receivers?.close();
// For bench/launch-day.ts, which runs this once per mail server and prints the three side by side.
console.log(
  `SUMMARY ${JSON.stringify({
    throughput: signups.rps / floor.rps,
    p99: signups.p99 / floor.p99,
    p99PerRound: median(p99PerRound),
    latestDeliverySeconds: DELIVERIES ? Math.max(...drainSeconds.map((seconds) => seconds ?? Number.POSITIVE_INFINITY)) : null,
    outboxHeld,
    lost: missing,
    deliveriesOnce: DELIVERIES ? !deliveryProblem : null,
    update:
      update && updateDrain
        ? {
            queued: update.queued,
            queuedMs: update.queuedMs,
            duringSignups: updateSentDuringSignups,
            drain: { ...updateDrain, rssMiB: { ...updateDrain.rssMiB, samples: undefined } },
          }
        : null,
  })}`,
);
if (missing > 0 || signups.errors > 0 || floor.errors > 0 || duplicates.errors > 0 || deliveryProblem) process.exitCode = 1;
