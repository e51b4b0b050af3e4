/**
 * The embedded file's connection thread (lib/db/worker-connection.ts) when it
 * fails: it dies (an uncaught error, an exit), it hangs, the file cannot be
 * opened, or its checkpoint thread cannot start. The real thread runs the real
 * adapter on a real SQLite file, with the fault probe (tests/support/fault-probe.cjs)
 * loaded into it to break it on order. The thread's keeping is the same for both
 * drivers (libSQL's engine runs in it too); these tests run it with better-sqlite3,
 * in that project only.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, inject, it, vi } from "vitest";
import { createDatabase, DatabaseUnavailable, temporaryKind, type Database } from "@/lib/db";
import { captureLog } from "@/lib/log";
import { threadsOf } from "../faults/support";

const PROBE_SCRIPT = path.resolve("tests/support/faulty-db-worker.mjs");
const directory = mkdtempSync(path.join(tmpdir(), "waitlist-connection-"));

function order(fault: Record<string, unknown>): void {
  const channel = new BroadcastChannel("fieldcrew-fault-probe");
  channel.postMessage(fault);
  channel.close();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let database: Database | undefined;
let captured: ReturnType<typeof captureLog> | undefined;

function open(file: string, queryTimeoutMs = 10_000) {
  captured = captureLog();
  database = createDatabase({ driver: "better-sqlite3", file }, { script: PROBE_SCRIPT, queryTimeoutMs, reopenAfterMs: 1_000 });
  return database;
}

function migratedCopy(): string {
  const file = path.join(directory, `${crypto.randomUUID()}.db`);
  copyFileSync(inject("templateDatabase"), file);
  return file;
}

const count = (db: Database) => db.waitlistEntry.count();

afterEach(async () => {
  captured?.stop();
  await database?.$disconnect().catch(() => {});
  database = undefined;
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("the database thread", () => {
  it("that exits with a query waiting: the query fails at once as temporary, the lock is released, and the next query gets a new thread", async () => {
    const db = open(migratedCopy());
    expect(await count(db)).toBe(0);
    order({ fault: "exit-on-next-query" });
    await sleep(50);
    const started = performance.now();
    const failure = await count(db).catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(temporaryKind(failure)).toBe("database_worker_died");
    // Queued behind it, and after it: answered by a fresh thread.
    expect(await Promise.all([count(db), count(db)])).toEqual([0, 0]);
    expect(captured!.lines).toContainEqual(expect.objectContaining({ level: "error", fault: "database_worker_died" }));
  });

  it("that throws an uncaught error: logged, replaced, and no thread left behind", async () => {
    const db = open(migratedCopy());
    await count(db);
    const threads = threadsOf(process.pid);
    order({ fault: "throw" });
    await expect.poll(() => captured!.lines.some((line) => line.fault === "database_worker_died")).toBe(true);
    expect(await count(db)).toBe(0);
    expect(threadsOf(process.pid)).toBeLessThanOrEqual(threads);
  });

  it("that dies inside a transaction: the transaction fails, its lock is released, and other queries go on", async () => {
    const db = open(migratedCopy());
    await count(db);
    const transaction = db
      .$transaction(async (tx) => {
        await tx.rateLimitWindow.create({ data: { key: "in-transaction", attempts: 1, expiresAt: 1n } });
        order({ fault: "exit-on-next-query" });
        await sleep(50);
        await tx.rateLimitWindow.create({ data: { key: "never", attempts: 1, expiresAt: 1n } });
      })
      .catch((error: unknown) => error);
    expect(temporaryKind(await transaction)).toBe("database_worker_died");
    expect(await db.rateLimitWindow.count()).toBe(0); // rolled back with the connection
    expect(await count(db)).toBe(0);
  });

  it("that hangs: a query gets no answer past its deadline, the thread is ended, the queries behind it are answered too, and a new thread serves the next", async () => {
    const db = open(migratedCopy(), 500);
    await count(db);
    order({ fault: "hang", ms: 3_000 });
    await sleep(50);
    const started = performance.now();
    const answers = await Promise.all([count(db), count(db), count(db)].map((query) => query.catch((error: unknown) => error)));
    const elapsed = performance.now() - started;
    expect(answers.map((answer) => temporaryKind(answer))).toEqual([
      "database_query_deadline",
      "database_query_deadline",
      "database_query_deadline",
    ]);
    expect(elapsed).toBeLessThan(1_500);
    expect(await count(db)).toBe(0);
  });
});

describe("the checkpoint thread", () => {
  it("that cannot start: logged with its error and stack, and the connection goes on answering", async () => {
    const file = migratedCopy();
    captured = captureLog();
    // The thread's script is found from the working directory; in this one there is none.
    const cwd = vi.spyOn(process, "cwd").mockReturnValue(directory);
    try {
      database = createDatabase({ driver: "better-sqlite3", file }, { script: PROBE_SCRIPT, checkpointEveryMs: 50 });
      expect(await count(database)).toBe(0);
      await expect
        .poll(() => captured!.lines.find((line) => String(line.msg).startsWith("the checkpoint thread failed")))
        .toMatchObject({
          level: "error",
          fault: "database_unavailable",
          error: { type: "Error", code: "MODULE_NOT_FOUND", stack: expect.stringContaining("checkpointer.mjs") },
        });
    } finally {
      cwd.mockRestore();
    }
    expect(await count(database)).toBe(0);
  });
});

describe("a database file that cannot be opened", () => {
  it.each([
    ["a directory", (file: string) => mkdirSync(file)],
    ["not a database", (file: string) => writeFileSync(file, "this is not a SQLite database, just text ".repeat(200))],
  ])("(%s) fails every query at once, tries to open it at most once a second, and leaves no thread behind", async (_, make) => {
    const file = path.join(directory, `${crypto.randomUUID()}.db`);
    make(file);
    const db = open(file);
    const threads = threadsOf(process.pid);
    const started = performance.now();
    const failures: unknown[] = [];
    while (performance.now() - started < 2_500) {
      failures.push(await count(db).catch((error: unknown) => error));
      await sleep(10);
    }
    expect(failures.length).toBeGreaterThan(50);
    expect(failures.every((failure) => failure instanceof DatabaseUnavailable || temporaryKind(failure) === "database_open_failed")).toBe(
      true,
    );
    const opens = captured!.lines.filter((line) => line.fault === "database_open_failed").length;
    expect(opens).toBeGreaterThanOrEqual(2);
    expect(opens).toBeLessThanOrEqual(4); // 2.5 s: at most one try a second, plus the first
    await sleep(100);
    expect(threadsOf(process.pid)).toBeLessThanOrEqual(threads + 1);
  });
});

describe("a temporary failure made by another copy of the data layer", () => {
  it("is still recognised: server.ts and Next's route bundles each load lib/db, and share one client", async () => {
    // A fresh copy of the module, as a second bundle would have (its own DatabaseUnavailable class).
    const copy = (await import(`@/lib/db/errors?copy=${Date.now()}`)) as typeof import("@/lib/db/errors");
    expect(copy.DatabaseUnavailable).not.toBe(DatabaseUnavailable);
    const thrownElsewhere = new copy.DatabaseUnavailable("the database thread failed", "database_worker_died");
    expect(thrownElsewhere instanceof DatabaseUnavailable).toBe(false);
    expect(temporaryKind(thrownElsewhere)).toBe("database_worker_died");
    expect(temporaryKind(new Error("wrapped", { cause: thrownElsewhere }))).toBe("database_worker_died");
    expect(temporaryKind(new Error("a bug"))).toBeNull();
  });
});
