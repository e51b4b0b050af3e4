/**
 * The database thread's slow-query log (lib/db/worker-connection.ts, WAITLIST_SLOW_QUERY_MS), on
 * a real SQLite file on both drivers: a query, or a transaction, that holds the database past the
 * threshold is logged with its statement and how long, never with the values bound to it; a
 * query under the threshold is not logged.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createDatabase, getDatabase, SLOW_QUERY_MS, type Database } from "@/lib/db";
import { databaseSettings, parseEnv } from "@/lib/env";
import { captureLog } from "@/lib/log";
import { setUpTestDatabase } from "../support/database";

const { url } = setUpTestDatabase();

/** A statement that keeps SQLite busy for a while (tens of ms here), with a value bound to it. */
const SECRET = "pat@private.example";
const busyFor = (database: Database) =>
  database.$queryRaw`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) SELECT count(*) AS c, ${SECRET} AS who FROM n`;

let database: Database | undefined;
let captured: ReturnType<typeof captureLog> | undefined;

function open(slowQueryMs: number): Database {
  captured = captureLog();
  database = createDatabase(databaseSettings({ ...parseEnv(), DATABASE_URL: url }), { slowQueryMs });
  return database;
}

type SlowQuery = { op: string; ms: number; cpu_ms?: number; queued_ms?: number; statement: string };
const slowLines = () => captured!.lines.filter((line) => line.slow_query !== undefined) as { slow_query: SlowQuery }[];

afterEach(async () => {
  captured?.stop();
  await database?.$disconnect();
  database = undefined;
});

describe("the slow-query log", () => {
  it("names a query that held the database past the threshold, and how long, without its values", async () => {
    const db = open(5);
    await busyFor(db);
    const [line, ...others] = slowLines();
    expect(others).toEqual([]);
    expect(line!.slow_query).toMatchObject({
      op: "queryRaw",
      statement: expect.stringMatching(/^WITH RECURSIVE n\(i\) AS \(SELECT 1 UNION ALL .* FROM n$/),
    });
    expect(line!.slow_query.ms).toBeGreaterThanOrEqual(5);
    expect(captured!.text()).not.toContain(SECRET);
  });

  it.runIf(process.platform === "linux")(
    "says how much of a slow query's time its thread ran on a CPU or waited for one (Linux)",
    async () => {
      const db = open(5);
      await busyFor(db);
      const { ms, cpu_ms: cpu, queued_ms: queued } = slowLines()[0]!.slow_query;
      // Counting in SQLite is CPU work alone: the thread was running or ready to, never waiting on
      // the disk, so the two account for (nearly) all of it. The kernel brings a running thread's
      // CPU time up to date at its clock tick (4 ms at most here), hence the few ms of slack. On a
      // shared virtual machine the hypervisor may also take the CPU away, time this kernel counts
      // as neither (CI once saw 47 of 60 ms), so the floor is half: still far from a wrong unit.
      expect(cpu).toBeGreaterThan(0);
      expect(cpu! + queued!).toBeLessThanOrEqual(ms + 5);
      expect(cpu! + queued!).toBeGreaterThanOrEqual(ms / 2 - 5);
    },
  );

  it("names a transaction that stayed open past the threshold by its first statement, however quick each statement was", async () => {
    const db = open(50);
    await db.$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE waitlist_search_state SET indexed_up_to = indexed_up_to WHERE id = ${1}`;
      await new Promise((resolve) => setTimeout(resolve, 80));
    });
    const lines = slowLines();
    expect(lines.map((line) => line.slow_query.op)).toEqual(["transaction"]);
    expect(lines[0]!.slow_query.statement).toBe("transaction: UPDATE waitlist_search_state SET indexed_up_to = indexed_up_to WHERE id = ?");
    expect(lines[0]!.slow_query.ms).toBeGreaterThanOrEqual(80);
  });

  it("is the site's: its client logs past SLOW_QUERY_MS by default, a client made for a script or the operator tool never", async () => {
    captured = captureLog();
    // Several times the default threshold on this machine.
    const long = (db: Database) =>
      db.$queryRaw`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT count(*) AS c FROM n`;
    database = createDatabase(databaseSettings({ ...parseEnv(), DATABASE_URL: url }));
    await long(database);
    expect(slowLines()).toEqual([]);
    const started = performance.now();
    await long(getDatabase());
    expect(performance.now() - started).toBeGreaterThan(SLOW_QUERY_MS);
    expect(slowLines().map((line) => line.slow_query.op)).toEqual(["queryRaw"]);
  });

  it("stays quiet below the threshold", async () => {
    const db = open(10_000);
    await busyFor(db);
    await db.$transaction([db.waitlistEntry.count(), db.waitlistEntry.count()]);
    expect(slowLines()).toEqual([]);
  });
});
