/**
 * Delivers what the outbox holds (the `outbox` table): rows written in the same
 * transaction as the sign-up they are about (lib/waitlist/store.ts), so a
 * stored sign-up always has its deliveries, and a restart or a crash loses none.
 *
 * Every instance runs a worker. A worker claims due rows under a lease (one
 * UPDATE ... RETURNING, so two instances never claim the same row), attempts
 * them, and records the outcome: delivered, due again after a backoff, or
 * failed for good after the last attempt (kept for the operator tool, which can
 * send it again). A lease that runs out (its instance died) frees the row for
 * the others. Each attempt has a hard deadline of half the lease, and its
 * outcome is recorded as soon as it finishes, so an attempt never outlives its
 * claim and a slow one never holds back the record of the others: a row is not
 * attempted by a second instance while the first may still be sending it.
 * Delivery is at least once only where a receiver took a message and the
 * answer was lost (a crash, a cut connection); each row's id is the same on
 * every attempt, so a receiver can drop a repeat (docs/operations.md).
 */
import "server-only";
import { getDatabase, Prisma, whileBusy, type Database } from "../db";
import type { WaitlistEntry } from "../generated/prisma/client";
import { GroupCommit } from "../group-commit";
import { errorFields, log } from "../log";

/** The kinds of delivery the site owes for a new sign-up. */
export const DELIVERY_KINDS = ["webhook", "email"] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/**
 * A claimed row: what a channel needs to attempt it. `event` says what it is about ("created"
 * for a sign-up's own deliveries; others named by whoever wrote the row) and `payload` carries
 * that event's facts as the writer fixed them (JSON, or null).
 */
export type Delivery = { id: string; kind: DeliveryKind; entryId: number; attempt: number; event: string; payload: string | null };

/**
 * `retry: false`: the receiver's answer will not change (a 4xx other than 408 and 429),
 * so the row fails now. `problem` goes to the log and the row; never personal data.
 */
export type Attempted =
  | { delivered: true }
  /** `now`: due again at once (the attempt was cut off by a shutdown, not refused), not after a backoff. */
  | { delivered: false; retry: boolean; problem: string; now?: boolean };

/**
 * Sends one delivery about its entry. Must stop (and give up the message) when
 * `signal` aborts: the attempt's deadline, shorter than the lease. Must not
 * throw; a thrown error counts as a retryable failure.
 */
export type Channel = (delivery: Delivery, entry: WaitlistEntry, signal: AbortSignal) => Promise<Attempted>;

export type DeliveryWorkerOptions = {
  channels: Partial<Record<DeliveryKind, Channel>>;
  /** This instance's name in leases and logs. */
  owner: string;
  /** Waits before the 2nd, 3rd, ... attempt; after the last, a row fails for good. */
  retryDelaysMs: readonly number[];
  /** How long a claim keeps other instances away. Each attempt is cut off at half of it. */
  leaseMs: number;
  database?: () => Database;
  /** How often the worker looks for due rows when nothing prompts it. */
  sweepEveryMs?: number;
  /** Rows claimed at a time. */
  batchSize?: number;
  /**
   * At most this many of a kind delivered in any hour, by all instances together
   * (MAIL_MAX_PER_HOUR for emails). Rows over it wait, pending, for the hour to move on.
   */
  hourlyCaps?: Partial<Record<DeliveryKind, number>>;
  /**
   * At most this many of a kind with the same throttle_key delivered in any hour, by all
   * instances together (MAIL_MAX_PER_DOMAIN_PER_HOUR: per recipient domain). Rows over it wait.
   */
  hourlyCapsPerKey?: Partial<Record<DeliveryKind, number>>;
  now?: () => number;
};

type Claimed = { id: string; kind: DeliveryKind; entry_id: bigint | number; attempts: bigint | number; event: string; payload: string | null };

/** Delivered rows are kept a week (the entry stays in waitlist_entries), then deleted. */
const KEEP_DELIVERED_MS = 7 * 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
const PRUNE_EVERY_MS = HOUR_MS;

export class DeliveryWorker {
  private readonly channels: Partial<Record<DeliveryKind, Channel>>;
  private readonly kinds: DeliveryKind[];
  private readonly database: () => Database;
  private readonly now: () => number;
  private readonly sweepEveryMs: number;
  private readonly batchSize: number;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | null = null;
  private sweepAgain = false;
  private stopped = false;
  private lastPrune = 0;
  /** The attempts under way, by delivery id: aborted when a stop's grace runs out. */
  private readonly inFlight = new Map<string, AbortController>();
  /** Outcomes that finish in the same moment are recorded together (one statement for the delivered ones). */
  private readonly recorder = new GroupCommit<{ delivery: Delivery; outcome: Attempted }, void>(async (batch) => {
    // Tried again while another instance holds the write lock: each statement touches only rows this
    // worker still holds and lets go of them, so a second try never records an outcome twice.
    await whileBusy(() => this.record(batch));
    return batch.map(() => ({ ok: undefined }));
  });

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.channels = options.channels;
    this.kinds = DELIVERY_KINDS.filter((kind) => options.channels[kind]);
    this.database = options.database ?? getDatabase;
    this.now = options.now ?? Date.now;
    this.sweepEveryMs = options.sweepEveryMs ?? 2_000;
    this.batchSize = options.batchSize ?? 50;
  }

  /** The hard deadline of one attempt: half the lease, so its outcome is recorded while the claim still holds. */
  get attemptDeadlineMs(): number {
    return Math.floor(this.options.leaseMs / 2);
  }

  /** The kinds this worker delivers; a sign-up owes one row of each. */
  get deliveryKinds(): readonly DeliveryKind[] {
    return this.kinds;
  }

  /** Looks for due rows now and then every sweepEveryMs, until stop(). */
  start(): void {
    if (this.timer || this.kinds.length === 0) return;
    this.stopped = false;
    this.timer = setInterval(() => this.deliverSoon(), this.sweepEveryMs);
    this.timer.unref();
    this.deliverSoon();
  }

  /** Attempts what is due as soon as possible (after a sign-up's answer went out, say). */
  deliverSoon(): void {
    if (this.stopped || this.kinds.length === 0) return;
    if (this.sweeping) {
      this.sweepAgain = true;
      return;
    }
    this.sweeping = this.sweepUntilDone().finally(() => (this.sweeping = null));
  }

  /** Resolves when the worker is idle: nothing claimed by it is being attempted. */
  async idle(): Promise<void> {
    while (this.sweeping) await this.sweeping;
  }

  /**
   * Stops claiming. Attempts under way get `graceMs` to finish and be recorded;
   * those still running then are cut off (recorded as due for a retry) and get
   * a moment to be recorded. Only then is whatever this instance still holds
   * and is not attempting handed back (its lease cleared), so another instance
   * attempts it at once instead of after the lease, and never while it may
   * still be on its way.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    if (!(await this.idleWithin(graceMs))) {
      for (const controller of this.inFlight.values()) controller.abort(new Error("the instance is shutting down"));
      await this.idleWithin(2_000);
    }
    await this.database().outboxMessage.updateMany({
      where: { leaseOwner: this.options.owner, status: "pending", id: { notIn: [...this.inFlight.keys()] } },
      data: { leaseOwner: null, leaseExpiresAt: null },
    });
  }

  private idleWithin(ms: number): Promise<boolean> {
    return Promise.race([this.idle().then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
  }

  private async sweepUntilDone(): Promise<void> {
    try {
      do {
        this.sweepAgain = false;
        // A full batch means more may be due right now.
        if ((await this.sweep()) >= this.batchSize) this.sweepAgain = true;
      } while (this.sweepAgain && !this.stopped);
      await this.pruneNowAndThen();
    } catch (error) {
      log.error({ fault: "delivery_worker", owner: this.options.owner, ...errorFields(error) }, "delivery worker pass failed; it tries again at its next look");
    }
  }

  /**
   * One pass: claim due rows, attempt them together, record each outcome as soon
   * as its attempt finishes. Returns how many were claimed.
   */
  async sweep(): Promise<number> {
    const claimed = await this.claim();
    if (claimed.length === 0) return 0;
    const entries = await this.database().waitlistEntry.findMany({ where: { id: { in: [...new Set(claimed.map((row) => row.entryId))] } } });
    const entryById = new Map(entries.map((entry) => [entry.id, entry]));
    const recorded = await Promise.allSettled(
      claimed.map(async (delivery) => {
        const controller = new AbortController();
        this.inFlight.set(delivery.id, controller);
        try {
          const outcome = await this.attempt(delivery, entryById.get(delivery.entryId), controller);
          await this.recorder.submit({ delivery, outcome });
        } finally {
          this.inFlight.delete(delivery.id);
        }
      }),
    );
    const failed = recorded.find((result) => result.status === "rejected");
    // Not recorded: the row keeps its lease until it runs out, then any instance tries it again.
    if (failed) throw failed.reason;
    return claimed.length;
  }

  /**
   * One attempt, cut off at attemptDeadlineMs, or when a stop aborts it, whatever the channel does.
   * `controller` is the attempt's own: its timer is cleared when the attempt ends (Node 20 keeps
   * AbortSignal.timeout()/any() signals alive long after, which grows the heap under load).
   */
  private async attempt(delivery: Delivery, entry: WaitlistEntry | undefined, controller: AbortController): Promise<Attempted> {
    // Removed since it was claimed: its rows went with it, nothing to send.
    if (!entry) return { delivered: true };
    const deadlineMs = this.attemptDeadlineMs;
    const { signal } = controller;
    const deadlinePassed = new Error(`the attempt's deadline (${deadlineMs} ms) passed`);
    const timer = setTimeout(() => controller.abort(deadlinePassed), deadlineMs);
    // Settles when the attempt is aborted, even if the channel itself never does.
    let onAbort!: () => void;
    const aborted = new Promise<Attempted>((resolve) => {
      onAbort = () => resolve({ delivered: false, retry: true, problem: `cut off after ${deadlineMs} ms` });
    });
    signal.addEventListener("abort", onAbort, { once: true });
    let outcome: Attempted;
    try {
      outcome = await Promise.race([this.channels[delivery.kind]!(delivery, entry, signal), aborted]);
    } catch (error) {
      outcome = { delivered: false, retry: true, problem: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
    if (outcome.delivered || !signal.aborted) return outcome;
    // Cut off by a shutdown: not the receiver's fault, so due again at once, from any instance.
    if (signal.reason !== deadlinePassed) return { delivered: false, retry: true, problem: "cut off by a shutdown", now: true };
    log.warn(
      { fault: "delivery_attempt_deadline", kind: delivery.kind, delivery_id: delivery.id, entry_id: delivery.entryId, deadline_ms: deadlineMs },
      "delivery attempt cut off at its deadline; it will be retried",
    );
    return outcome;
  }

  private async claim(): Promise<Delivery[]> {
    const claimed: Delivery[] = [];
    for (const kind of this.kinds) claimed.push(...(await this.claimKind(kind)));
    return claimed;
  }

  /**
   * One statement, so two instances never claim one row, and a cap counts what
   * every instance has sent in the last hour plus what is being attempted now.
   * With a cap per throttle key, the due rows of each key are numbered in the
   * order they are due, and a row is claimed only while its number plus what its
   * key used in the hour stays within the cap.
   */
  private async claimKind(kind: DeliveryKind): Promise<Delivery[]> {
    const now = new Date(this.now());
    const hourAgo = new Date(now.getTime() - HOUR_MS);
    const leaseUntil = new Date(now.getTime() + this.options.leaseMs);
    // Delivered in the last hour, or being attempted now.
    const used = Prisma.sql`((status = 'delivered' AND delivered_at > ${hourAgo}) OR (status = 'pending' AND lease_expires_at > ${now}))`;
    const cap = this.options.hourlyCaps?.[kind];
    const limit =
      cap === undefined
        ? Prisma.sql`${this.batchSize}`
        : Prisma.sql`max(0, min(${this.batchSize}, ${cap} - (SELECT count(*) FROM outbox WHERE kind = ${kind} AND ${used})))`;
    const due = Prisma.sql`status = 'pending' AND kind = ${kind} AND next_attempt_at <= ${now} AND (lease_expires_at IS NULL OR lease_expires_at <= ${now})`;
    const keyCap = this.options.hourlyCapsPerKey?.[kind];
    const claimable =
      keyCap === undefined
        ? Prisma.sql`SELECT id FROM outbox WHERE ${due} ORDER BY next_attempt_at LIMIT ${limit}`
        : Prisma.sql`
            SELECT id FROM (
              SELECT id, next_attempt_at, throttle_key, row_number() OVER (PARTITION BY throttle_key ORDER BY next_attempt_at, id) AS nth
              FROM outbox WHERE ${due}
            ) AS candidate
            WHERE throttle_key IS NULL OR nth + (
              SELECT count(*) FROM outbox AS sent WHERE sent.kind = ${kind} AND sent.throttle_key = candidate.throttle_key AND ${used}
            ) <= ${keyCap}
            ORDER BY next_attempt_at
            LIMIT ${limit}`;
    // Another instance's claim or record may hold the write lock for a moment (libSQL's engine does
    // not wait for it at all): one statement, so it can simply be tried again (lib/db whileBusy).
    const rows = await whileBusy(() => this.database().$queryRaw<Claimed[]>`
      UPDATE outbox SET lease_owner = ${this.options.owner}, lease_expires_at = ${leaseUntil}, attempts = attempts + 1
      WHERE id IN (${claimable})
      RETURNING id, kind, entry_id, attempts, event, payload`);
    return rows.map((row) => ({ id: row.id, kind: row.kind, entryId: Number(row.entry_id), attempt: Number(row.attempts), event: row.event, payload: row.payload }));
  }

  /** Delivered rows in one statement; the rest (rare) one by one. Only rows this worker still holds. */
  private async record(batch: { delivery: Delivery; outcome: Attempted }[]): Promise<void> {
    const database = this.database();
    const owner = this.options.owner;
    const now = this.now();
    const released = { leaseOwner: null, leaseExpiresAt: null };
    const claimed = batch.map((item) => item.delivery);
    const outcomes = batch.map((item) => item.outcome);
    const delivered = claimed.filter((_, i) => outcomes[i]!.delivered).map((delivery) => delivery.id);
    if (delivered.length > 0) {
      await database.outboxMessage.updateMany({
        where: { id: { in: delivered }, leaseOwner: owner },
        data: { status: "delivered", deliveredAt: new Date(now), lastError: null, ...released },
      });
    }
    for (const [i, delivery] of claimed.entries()) {
      const outcome = outcomes[i]!;
      if (outcome.delivered) continue;
      const delay = outcome.now ? 0 : this.options.retryDelaysMs[delivery.attempt - 1];
      const again = outcome.retry && delay !== undefined;
      await database.outboxMessage.updateMany({
        where: { id: delivery.id, leaseOwner: owner },
        data: again
          ? { nextAttemptAt: new Date(now + delay), lastError: outcome.problem, ...released, ...(outcome.now ? { attempts: { decrement: 1 } } : {}) }
          : { status: "failed", lastError: outcome.problem, ...released },
      });
      if (!again) {
        // The ids let an operator find it (npm run waitlist -- deliveries); nothing the visitor typed is logged.
        log.error(
          { fault: "delivery_failed", kind: delivery.kind, entry_id: delivery.entryId, delivery_id: delivery.id, attempts: delivery.attempt, problem: outcome.problem },
          `${delivery.kind} delivery failed for good`,
        );
      }
    }
  }

  private async pruneNowAndThen(): Promise<void> {
    const now = this.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await this.database().outboxMessage.deleteMany({ where: { status: "delivered", deliveredAt: { lt: new Date(now - KEEP_DELIVERED_MS) } } });
  }
}
