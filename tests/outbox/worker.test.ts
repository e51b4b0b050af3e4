/**
 * The outbox worker's mechanics at launch volume (issue 43), on a real migrated SQLite file with
 * channels of the test's own: the hourly caps counted per minute and exact across two instances,
 * a claim whose plan reads the front of its indexes whatever the history, rows over their key's
 * cap put off without holding up other keys, first attempts before a failing receiver's retries,
 * the pruning of delivered history, the yield to a saturated site, and an attempt's deadline.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createDatabase, getDatabase, Prisma } from "@/lib/db";
import { captureLog } from "@/lib/log";
import { databaseSettings, parseEnv } from "@/lib/env";
import { owe, type OwedDelivery } from "@/lib/outbox/owe";
import { claimStatement } from "@/lib/outbox/statements";
import { DeliveryWorker, type Attempted, type Channel, type DeliveryKind, type DeliveryWorkerOptions } from "@/lib/outbox/worker";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { holdWriteLock, setUpTestDatabase } from "../support/database";
import { validSignup } from "../support/requests";

const { url: databaseUrl, file: databaseFile } = setUpTestDatabase();

const MINUTE = 60_000;
/** The tests' clock: a minute's start, so rows written "now" fall in one counted minute. */
const T0 = Math.floor(Date.now() / MINUTE) * MINUTE + 60 * MINUTE;

async function entry(email = `person.${Math.random()}@example.com`): Promise<number> {
  const result = await addToWaitlist(waitlistSignupSchema.parse(validSignup({ email })));
  if (result.outcome !== "created") throw new Error(result.outcome);
  return result.entry.id;
}

/** `count` entries, each owing one row of `kind` (with throttle key `key`), due at `at`. */
async function owing(
  count: number,
  kind: DeliveryKind,
  key: (i: number) => string | null = () => null,
  at = new Date(T0),
): Promise<string[]> {
  const rows: OwedDelivery[] = [];
  for (let i = 0; i < count; i += 1)
    rows.push({ id: crypto.randomUUID(), kind, entryId: await entry(), event: "created", payload: "", throttleKey: key(i) });
  await owe(getDatabase(), rows, at);
  return rows.map((row) => row.id);
}

/** A channel that answers with `outcome` (by default: delivered) and counts what it was given. */
function channel(outcome: (id: string) => Attempted = () => ({ delivered: true })) {
  const attempted: string[] = [];
  const send: Channel = async (delivery) => {
    attempted.push(delivery.id);
    return outcome(delivery.id);
  };
  return { send, attempted };
}

function worker(channels: Partial<Record<DeliveryKind, Channel>>, options: Partial<DeliveryWorkerOptions> = {}) {
  return new DeliveryWorker({ channels, owner: "test", retryDelaysMs: [1_000, 2_000], leaseMs: 60_000, now: () => T0, ...options });
}

const counted = (kind: DeliveryKind, key = "") =>
  getDatabase().$queryRaw<
    { sent: bigint | number | null }[]
  >`SELECT sum(sent) AS sent FROM outbox_sent_minutes WHERE kind = ${kind} AND throttle_key = ${key}`.then(([row]) =>
    Number(row?.sent ?? 0),
  );

describe("the hourly caps", () => {
  it("hold exactly across two instances claiming at once, whatever their batches", async () => {
    await owing(40, "email", (i) => (i % 2 === 0 ? "a.example" : "b.example"));
    const other = createDatabase(databaseSettings({ ...parseEnv(), DATABASE_URL: databaseUrl }));
    try {
      const a = channel();
      const b = channel();
      const caps = { hourlyCaps: { email: 15 }, hourlyCapsPerKey: { email: 10 }, batchSize: 4 };
      const one = worker({ email: a.send }, { ...caps, owner: "one" });
      const two = worker({ email: b.send }, { ...caps, owner: "two", database: () => other });
      for (let round = 0; round < 6; round += 1) await Promise.all([one.sweep(), two.sweep(), one.sweep(), two.sweep()]);
      // The kind's 15, neither key over its 10, nothing sent twice.
      const sent = [...a.attempted, ...b.attempted];
      expect(sent).toHaveLength(15);
      expect(new Set(sent).size).toBe(15);
      expect(await counted("email")).toBe(15);
      expect(await counted("email", "a.example")).toBeLessThanOrEqual(10);
      expect(await counted("email", "b.example")).toBeLessThanOrEqual(10);
    } finally {
      await other.$disconnect();
    }
  });

  it("count a delivery and an attempt under way, and give back an attempt that ended without one", async () => {
    const [refused] = await owing(1, "email", () => "c.example");
    await owing(1, "email", () => "c.example");
    const mail = channel((id) => (id === refused ? { delivered: false, retry: true, problem: "SMTP 451" } : { delivered: true }));
    expect(await worker({ email: mail.send }, { hourlyCaps: { email: 10 } }).sweep()).toBe(2);
    expect(await counted("email")).toBe(1);
    expect(await counted("email", "c.example")).toBe(1);
    // Handed back unattempted by a stopping instance: given back too.
    await owing(1, "email", () => "c.example");
    const stuck = worker({ email: () => new Promise(() => {}) }, { owner: "stuck", hourlyCaps: { email: 10 } });
    stuck.deliverSoon();
    await expect.poll(() => counted("email")).toBe(2);
    await stuck.stop(20);
    expect(await counted("email")).toBe(1);
  });

  it("put off a key over its cap until its oldest counted minute leaves the hour, and claim the other keys behind it at once", async () => {
    // 12 rows of one domain first, then 2 of another: a batch of 10 is all the flooded domain's.
    await owing(12, "email", () => "flood.example", new Date(T0 - 2_000));
    await owing(2, "email", () => "quiet.example", new Date(T0 - 1_000));
    const mail = channel();
    const capped = () => worker({ email: mail.send }, { hourlyCapsPerKey: { email: 2 }, batchSize: 10 });
    expect(await capped().sweep()).toBe(2); // the flooded domain's 2; its 8 others in the batch put off
    expect(await capped().sweep()).toBe(2); // the 2 it did not read yet are put off in turn, the quiet domain's 2 go
    expect(await capped().sweep()).toBe(0);
    const waiting = await getDatabase().outboxMessage.findMany({ where: { status: "pending" } });
    expect(waiting).toHaveLength(10);
    expect(new Set(waiting.map((row) => row.nextAttemptAt.getTime()))).toEqual(new Set([T0 + 61 * MINUTE]));
    const later = new DeliveryWorker({
      channels: { email: mail.send },
      owner: "test",
      retryDelaysMs: [1_000],
      leaseMs: 60_000,
      now: () => T0 + 61 * MINUTE,
      hourlyCapsPerKey: { email: 2 },
    });
    expect(await later.sweep()).toBe(2);
  });
});

describe("a claim", () => {
  it("reads only the front of the indexes of due rows and the caps' minutes, never the history", async () => {
    // A delivered history in the table, as at a million sign-ups (its size does not matter to the plan).
    await owing(30, "email", () => "x.example");
    await getDatabase().$executeRaw`UPDATE outbox SET status = 'delivered', delivered_at = ${new Date(T0)}`;
    // A client of its own: libSQL leaves an EXPLAIN of an UPDATE ... RETURNING open on its connection.
    const explaining = createDatabase(databaseSettings({ ...parseEnv(), DATABASE_URL: databaseUrl }));
    try {
      for (const [cap, keyCap] of [
        [undefined, undefined],
        [200, 20],
      ] as const) {
        const statement = claimStatement({ kind: "email", room: 50, retryRoom: 25, now: T0, owner: "plan", leaseMs: 60_000, cap, keyCap });
        const plan = (await explaining.$queryRaw<{ detail: string }[]>(Prisma.sql`EXPLAIN QUERY PLAN ${statement}`)).map(
          (row) => row.detail,
        );
        expect(plan).toContainEqual(expect.stringMatching(/^SEARCH outbox USING INDEX outbox_first_attempts_idx/));
        expect(plan).toContainEqual(expect.stringMatching(/^SEARCH outbox USING INDEX outbox_retries_idx/));
        // Whole-table reads of outbox or of the counts would grow with the history.
        expect(plan.filter((line) => /^SCAN (outbox|outbox_sent_minutes)\b/.test(line))).toEqual([]);
      }
    } finally {
      await explaining.$disconnect();
    }
  });

  it("takes first attempts before a failing receiver's retries, which get at most half of the places", async () => {
    const failing = await owing(30, "webhook", () => null, new Date(T0 - 10_000));
    const hook = channel((id) => (failing.includes(id) ? { delivered: false, retry: true, problem: "HTTP 503" } : { delivered: true }));
    const now = { at: T0 };
    const options = { maxInFlight: 20, batchSize: 20, now: () => now.at };
    expect(await worker({ webhook: hook.send }, options).sweep()).toBe(20);
    expect(await worker({ webhook: hook.send }, options).sweep()).toBe(10);
    // All 30 wait for a retry; then 25 new sign-ups' webhooks arrive.
    const fresh = await owing(25, "webhook");
    now.at += 1_000;
    hook.attempted.length = 0;
    const stalled = worker({ webhook: () => new Promise<Attempted>(() => {}) }, { ...options, owner: "stalled" });
    stalled.deliverSoon();
    await expect.poll(async () => getDatabase().outboxMessage.count({ where: { leaseOwner: "stalled" } })).toBe(20);
    const held = await getDatabase().outboxMessage.findMany({ where: { leaseOwner: "stalled" }, select: { id: true } });
    // The first claim is the new sign-ups' first attempts: the 30 retries, due earlier, wait.
    expect(held.every((row) => fresh.includes(row.id))).toBe(true);
    await stalled.stop(10);
    const retries = worker({ webhook: () => new Promise<Attempted>(() => {}) }, { ...options, owner: "retries" });
    now.at += 1;
    await getDatabase().outboxMessage.updateMany({ where: { id: { in: fresh } }, data: { status: "delivered" } });
    retries.deliverSoon();
    // With only retries due, they take half the places: 10 of 20.
    await expect.poll(async () => getDatabase().outboxMessage.count({ where: { leaseOwner: "retries" } })).toBe(10);
    await sleep(100);
    expect(await getDatabase().outboxMessage.count({ where: { leaseOwner: "retries" } })).toBe(10);
    await retries.stop(10);
  });
});

describe("channels that are not ready yet", () => {
  it("are given nothing: no row is claimed (no lease starts) until they are, then each is attempted", async () => {
    const rows = await owing(3, "webhook");
    const hook = channel();
    let becomeReady!: () => void;
    const ready = new Promise<void>((resolve) => (becomeReady = resolve));
    const waiting = worker({ webhook: hook.send }, { owner: "not-ready", ready: () => ready });
    const sweep = waiting.sweep();
    await sleep(100);
    expect(await getDatabase().outboxMessage.count({ where: { id: { in: rows }, leaseOwner: { not: null } } })).toBe(0);
    expect(hook.attempted).toEqual([]);
    becomeReady();
    expect(await sweep).toBe(3);
    expect(hook.attempted.sort()).toEqual([...rows].sort());
  });
});

describe("the delivered history", () => {
  it("is pruned a batch at a time after a week: older delivered rows and counts go, the rest stays", async () => {
    const WEEK = 7 * 24 * 60 * MINUTE;
    const ids = await owing(80, "webhook");
    const database = getDatabase();
    const set = (some: string[], sql: (ids: string) => Prisma.Sql) => database.$executeRaw(sql(JSON.stringify(some)));
    const old = ids.slice(0, 70);
    await set(
      old,
      (list) =>
        Prisma.sql`UPDATE outbox SET status = 'delivered', delivered_at = ${new Date(T0 - WEEK - MINUTE)} WHERE id IN (SELECT value FROM json_each(${list}))`,
    );
    await set(
      ids.slice(70, 75),
      (list) =>
        Prisma.sql`UPDATE outbox SET status = 'delivered', delivered_at = ${new Date(T0 - WEEK + 20 * MINUTE)} WHERE id IN (SELECT value FROM json_each(${list}))`,
    );
    await set(
      ids.slice(75, 78),
      (list) => Prisma.sql`UPDATE outbox SET status = 'failed' WHERE id IN (SELECT value FROM json_each(${list}))`,
    );
    await database.$executeRaw`INSERT INTO outbox_sent_minutes (kind, throttle_key, minute, sent) VALUES ('email', '', ${T0 / MINUTE - 200}, 3), ('email', '', ${T0 / MINUTE - 30}, 4)`;
    const prune = worker({ webhook: channel().send }, { now: () => T0 + 10 * MINUTE });
    // The two pending rows are delivered by this sweep; a prune takes 50 of the 70 at a time.
    expect(await prune.sweep()).toBe(2);
    expect(await prune.prune()).toBe(50);
    expect(await database.outboxMessage.count({ where: { id: { in: old } } })).toBe(20);
    expect(await prune.prune()).toBe(20);
    expect(await database.outboxMessage.count({ where: { id: { in: old } } })).toBe(0);
    expect(await database.outboxMessage.count()).toBe(10);
    expect((await database.outboxSentMinute.findMany({ where: { kind: "email" } })).map((row) => row.sent)).toEqual([4]);
  });

  it("waits out another process's lock between tries, with the site's connection free meanwhile", async () => {
    const ids = await owing(3, "webhook");
    const database = getDatabase();
    await database.$executeRaw`UPDATE outbox SET status = 'delivered', delivered_at = ${new Date(T0 - 8 * 24 * 60 * MINUTE)} WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
    const lock = await holdWriteLock(databaseFile);
    let pruned: Promise<number>;
    let readWhileLocked: boolean;
    try {
      pruned = worker({ webhook: channel().send }, { now: () => T0 }).prune();
      await sleep(100);
      // A read right behind the prune answers while the lock is still held. A prune that waited in
      // SQLite's busy handler (better-sqlite3's 3 s) would hold the one connection, and the read, until
      // the lock went; the guard lets the lock go after 2.5 s so that the test ends either way.
      readWhileLocked = await Promise.race([database.$queryRaw`SELECT 1`.then(() => true), sleep(2_500).then(() => false)]);
    } finally {
      await lock.release();
    }
    expect(readWhileLocked).toBe(true);
    expect(await pruned).toBe(3);
    expect(await database.outboxMessage.count()).toBe(0);
  });
});

describe("a saturated site", () => {
  it("comes first: prompts wait for the next sweep, which claims a few rows per kind", async () => {
    await owing(40, "webhook");
    const hook = channel();
    // Any use of the event loop counts as saturated here.
    const yielding = worker({ webhook: hook.send }, { yieldAbove: -1 });
    await sleep(300); // the worker looks at the event loop at most every 250 ms
    yielding.deliverSoon();
    await sleep(150);
    expect(hook.attempted).toHaveLength(0);
    expect(await yielding.sweep()).toBe(10);
    const eased = worker({ webhook: hook.send });
    expect(await eased.sweep()).toBe(30);
  });
});

describe("an attempt that reaches its deadline", () => {
  it("is a delivery when its channel reports the answer within a quarter of the lease after it; cut off when it says nothing", async () => {
    const [answered, silent] = await owing(2, "webhook");
    // A lease of 400 ms: the deadline at 200, the channel heard until 300.
    const late: Channel = async (delivery) => {
      if (delivery.id === silent) return new Promise<Attempted>(() => undefined);
      await sleep(250);
      return { delivered: true };
    };
    const captured = captureLog();
    try {
      expect(await worker({ webhook: late }, { leaseMs: 400 }).sweep()).toBe(2);
    } finally {
      captured.stop();
    }
    const rows = await getDatabase().outboxMessage.findMany({ where: { id: { in: [answered!, silent!] } } });
    expect(Object.fromEntries(rows.map((row) => [row.id, [row.status, row.lastError]]))).toEqual({
      [answered!]: ["delivered", null],
      [silent!]: ["pending", "cut off after 200 ms"],
    });
    expect(captured.lines.filter((line) => line.fault === "delivery_attempt_deadline").map((line) => line.delivery_id)).toEqual([silent]);
  });

  it("waits for its channel's word no longer once the instance stops: recorded and handed back at once", async () => {
    const [row] = await owing(1, "webhook");
    // A lease of 16 s: the deadline at 8 s, the channel heard until 12 s, longer than a stop's last
    // 2 s for attempts to be recorded: a stop that waited would leave the row held, unrecorded.
    const silent = worker({ webhook: () => new Promise<Attempted>(() => undefined) }, { owner: "stopping", leaseMs: 16_000 });
    silent.deliverSoon();
    await sleep(8_300);
    await silent.stop(0);
    const stored = await getDatabase().outboxMessage.findUniqueOrThrow({ where: { id: row! } });
    expect([stored.status, stored.leaseOwner, stored.lastError]).toEqual(["pending", null, "cut off after 8000 ms"]);
  }, 20_000);

  it("is logged as cut off when its channel ended it there itself (the sending thread's own timer), and only then", async () => {
    const late = (await owing(1, "webhook"))[0]!;
    const refused = (await owing(1, "email"))[0]!;
    const captured = captureLog();
    try {
      const sweeps = worker({
        webhook: channel(() => ({ delivered: false, retry: true, problem: "aborted: the attempt's deadline passed", atDeadline: true }))
          .send,
        email: channel(() => ({ delivered: false, retry: true, problem: "SMTP 451" })).send,
      });
      expect(await sweeps.sweep()).toBe(2);
    } finally {
      captured.stop();
    }
    const cutOff = captured.lines.filter((line) => line.fault === "delivery_attempt_deadline");
    expect(cutOff).toEqual([expect.objectContaining({ kind: "webhook", delivery_id: late, deadline_ms: 30_000 })]);
    expect(captured.text()).not.toContain(refused);
    const rows = await getDatabase().outboxMessage.findMany({ where: { id: { in: [late, refused] } }, orderBy: { kind: "asc" } });
    expect(rows.map((row) => [row.kind, row.status, row.lastError])).toEqual([
      ["email", "pending", "SMTP 451"],
      ["webhook", "pending", "aborted: the attempt's deadline passed"],
    ]);
  });
});
