/**
 * Delivers what the outbox holds (the `outbox` table): rows written with the change they are about
 * (./owe.ts), or for new sign-ups by the `owe` pass that runs before each claim
 * (lib/waitlist/signup-deliveries.ts), so a stored sign-up always gets its deliveries, and a
 * restart or a crash loses none.
 *
 * Every instance runs a worker. It claims due rows under a lease (one UPDATE ... RETURNING, so two
 * instances never claim the same row), attempts them, and records each outcome: delivered, due
 * again after a backoff, or failed for good after the last attempt (kept for the operator tool,
 * which can send it again). A lease that runs out (its instance died) frees the row for the
 * others. Each attempt is cut off at half the lease and its outcome recorded by three quarters of
 * it, while the claim still holds. Delivery is at least once only where a receiver took a message
 * and the answer was lost; a row's id is the same on every attempt, so a receiver can drop a repeat.
 *
 * Attempts run side by side, up to maxInFlight of each kind, and the worker claims more as places
 * free up: a slow receiver of one kind holds up neither the other kind nor the rows behind it.
 * Retries take at most half of a kind's places, and first attempts are claimed before them, so a
 * failing receiver's retries never hold back the deliveries of new sign-ups.
 *
 * This file is the scheduling; ./statements.ts is its SQL.
 */
import "server-only";
import { getDatabase, whileBusy, type Database } from "../db";
import { EventLoopLoad } from "../event-loop-load";
import { timestamp } from "../time";
import type { WaitlistEntry } from "../generated/prisma/client";
import { GroupCommit } from "../group-commit";
import { errorFields, log } from "../log";
import {
  claimStatement,
  pruneDeliveredStatement,
  pruneMinutesStatement,
  PRUNE_BATCH,
  recordStatement,
  handOverStatement,
  settleHandedOverStatement,
  DELIVERY_KINDS,
  SIGNUP_KINDS,
  type ClaimedRow,
  type DeliveryKind,
  type OutcomeRow,
} from "./statements";

export type { DeliveryKind } from "./statements";

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
  | {
      delivered: false;
      retry: boolean;
      problem: string;
      now?: boolean;
      /**
       * The receiver refused the message for good, and why (`code`, no personal data): the
       * recipient's mailbox is gone (a bounce), or something about the message or the sending.
       * `onRefused` hears of it.
       */
      refused?: { mailboxGone: boolean; code: string };
      /**
       * The channel ended the attempt at its deadline itself, or did not start it in time (the
       * sending thread keeps the deadline too): a cut-off like one the worker's own timer makes.
       */
      atDeadline?: boolean;
    };

/**
 * Sends one delivery about its entry. Must stop (and give up the message) when
 * `signal` aborts: the attempt's deadline, shorter than the lease. `deadline` is
 * when that happens (Date.now() time): a channel whose attempt can wait before it
 * starts (in another thread's queue) must not start it after. Must not throw; a
 * thrown error counts as a retryable failure.
 */
export type Channel = (
  delivery: Delivery,
  entry: WaitlistEntry,
  signal: AbortSignal,
  deadline: number,
  handOver?: HandOver,
) => Promise<Attempted>;

/**
 * Asked by a channel just before it ends a message's data, which is what makes a mail server take
 * it: resolves true once the row is marked handed over (then the message is finished, and the row
 * is never sent again, even if this instance dies before it hears the answer), false when the
 * claim is lost (the message must then be given up unfinished). A channel that never asks is
 * delivered at least once, as before.
 */
export type HandOver = () => Promise<boolean>;

/** A delivery a receiver refused for good: whose, and what the receiver said (Attempted's `refused`). */
export type Refusal = { entryId: number; deliveryId: string; mailboxGone: boolean; code: string };

export type DeliveryWorkerOptions = {
  channels: Partial<Record<DeliveryKind, Channel>>;
  /**
   * Resolves when the channels can attempt at once (a sending thread that has loaded them,
   * lib/outbox/channel-thread.ts). Nothing is claimed before: a claim starts its lease, and the
   * time to get ready would come out of the attempt's deadline.
   */
  ready?: () => Promise<void>;
  /** Told, after their outcomes are recorded, of the deliveries a receiver refused for good (Attempted's `refused`). */
  onRefused?: (database: Database, refused: Refusal[]) => Promise<void>;
  /** This instance's name in leases and logs. */
  owner: string;
  /** Waits before the 2nd, 3rd, ... attempt; after the last, a row fails for good. */
  retryDelaysMs: readonly number[];
  /** How long a claim keeps other instances away. Each attempt is cut off at half of it. */
  leaseMs: number;
  database?: () => Database;
  /** How often the worker looks for due rows when nothing prompts it. */
  sweepEveryMs?: number;
  /** Rows of a kind claimed at a time. */
  batchSize?: number;
  /** Attempts of one kind under way at once; retries take at most half of them. */
  maxInFlight?: number;
  /** How long a prompt (deliverSoon) waits before claiming, so that what is owed meanwhile goes in the same claim. */
  gatherMs?: number;
  /**
   * Writes what has become owed since the last look, before each claim (the waitlist: its new
   * sign-ups' deliveries, lib/waitlist/signup-deliveries.ts), for at most `max` of its subjects;
   * resolves true when more may be owed at once. With no channel it still runs, every
   * sweepEveryMs, owing nothing.
   */
  owe?: (database: Database, kinds: readonly DeliveryKind[], now: Date, max: number) => Promise<boolean>;
  /**
   * Above this share of the process's main thread in use (its event loop's utilization since the
   * last look), the site is saturated and its visitors come first: prompts wait for the next sweep,
   * and a sweep owes and claims a few rows (YIELDING_BATCH) per kind, so nothing waits for good.
   * Unset: never yields.
   */
  yieldAbove?: number;
  /**
   * Kinds that wait for a quieter site than the others (updates to the list: bulk mail nobody is
   * waiting for): while the main thread is busier than this share, such a kind is claimed at most
   * once a sweep, QUIET_BATCH rows at a time, so it never takes a visitor's time, and still moves.
   */
  quietAbove?: Partial<Record<DeliveryKind, number>>;
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
  /** The kinds whose deliveries count against a kind's caps (itself when unset): updates and emails share the mail server's. */
  capKinds?: Partial<Record<DeliveryKind, readonly DeliveryKind[]>>;
  now?: () => number;
};

type Outcome = { delivery: Delivery; outcome: Attempted };

/** A claimed row as a channel takes it. */
function deliveryOf(row: ClaimedRow): Delivery {
  return {
    id: row.id,
    kind: row.kind,
    entryId: Number(row.entry_id),
    attempt: Number(row.attempts),
    event: row.event,
    payload: row.payload,
  };
}

/** The prune runs once a minute, and again at the next look while it found a full batch. */
const PRUNE_EVERY_MS = 60_000;
/** Rows owed and claimed per kind by a sweep while the site is saturated (yieldAbove). */
const YIELDING_BATCH = 10;
/** Rows of a quiet kind (quietAbove) claimed at a time while the site is busier than its share. */
const QUIET_BATCH = 5;
/** Outcomes finishing within this long of each other are recorded by one statement. */
const RECORD_GATHER_MS = 20;

export class DeliveryWorker {
  private readonly channels: Partial<Record<DeliveryKind, Channel>>;
  private readonly kinds: DeliveryKind[];
  private readonly database: () => Database;
  private readonly now: () => number;
  private readonly sweepEveryMs: number;
  private readonly batchSize: number;
  private readonly maxInFlight: number;
  private readonly gatherMs: number;
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | null = null;
  private pumpAgain = false;
  private stopped = false;
  private nextPrune = 0;
  private nextSettle = 0;
  /** The main thread's load, when the worker yields to a saturated site (yieldAbove). */
  private readonly load: EventLoopLoad | undefined;
  /** The main thread's load against each quiet kind's share (quietAbove), and when each was last claimed while busy. */
  private readonly quiet = new Map<DeliveryKind, { load: EventLoopLoad; lastBusyClaim: number }>();
  /** Kinds whose last claim was cut short by the places free (for any attempt, or for retries): claimed again as they free up. */
  private readonly waitingForRoom = new Map<DeliveryKind, "any" | "retries">();
  /** The attempts under way, by delivery id: aborted when a stop's grace runs out. */
  private readonly inFlight = new Map<string, { controller: AbortController; kind: DeliveryKind; retry: boolean }>();
  /** Each attempt under way until its outcome is recorded. */
  private readonly settling = new Set<Promise<void>>();
  /** Attempts past their deadline, waiting for their channel's word (answerGraceMs): a stop ends the wait. */
  private readonly awaitingAnswer = new Set<() => void>();
  private readonly recorder = new GroupCommit<Outcome, void>(
    async (batch) => {
      // Tried again while another instance holds the write lock: the statement touches only rows
      // this worker still holds and lets go of them, so a second try never records anything twice.
      await whileBusy(this.database(), (db) => this.record(db, batch));
      return batch.map(() => ({ ok: undefined }));
    },
    { gatherMs: RECORD_GATHER_MS },
  );
  /** Hand-overs asked for within a moment of each other are marked by one statement. */
  private readonly handOvers = new GroupCommit<string, boolean>(
    async (ids) => {
      const marked = await whileBusy(this.database(), (db) =>
        db.$queryRaw<{ id: string }[]>(handOverStatement(ids, this.options.owner, this.now())),
      );
      const markedIds = new Set(marked.map((row) => row.id));
      return ids.map((id) => ({ ok: markedIds.has(id) }));
    },
    { gatherMs: 2 },
  );

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.channels = options.channels;
    this.kinds = DELIVERY_KINDS.filter((kind) => options.channels[kind]);
    this.database = options.database ?? getDatabase;
    this.now = options.now ?? Date.now;
    this.sweepEveryMs = options.sweepEveryMs ?? 2_000;
    this.batchSize = options.batchSize ?? 50;
    this.maxInFlight = options.maxInFlight ?? 100;
    this.gatherMs = options.gatherMs ?? 50;
    this.load = options.yieldAbove === undefined ? undefined : new EventLoopLoad(options.yieldAbove);
    for (const [kind, above] of Object.entries(options.quietAbove ?? {}))
      this.quiet.set(kind as DeliveryKind, { load: new EventLoopLoad(above), lastBusyClaim: 0 });
  }

  /** The hard deadline of one attempt: half the lease, so its outcome is recorded while the claim still holds. */
  get attemptDeadlineMs(): number {
    return Math.floor(this.options.leaseMs / 2);
  }

  /**
   * How long after the deadline a channel still has to report how its attempt ended: a quarter of
   * the lease, so the outcome is recorded at three quarters of it, while the claim still holds.
   */
  private get answerGraceMs(): number {
    return Math.floor(this.options.leaseMs / 4);
  }

  /** The kinds this worker delivers that a sign-up owes one row of each (not "update"). */
  get deliveryKinds(): readonly DeliveryKind[] {
    return this.kinds.filter((kind) => (SIGNUP_KINDS as readonly DeliveryKind[]).includes(kind));
  }

  /** Whether there is anything to do: a channel, or something to owe. */
  private get active(): boolean {
    return this.kinds.length > 0 || this.options.owe !== undefined;
  }

  /** Looks for due rows now and then every sweepEveryMs, until stop(). */
  start(): void {
    if (this.timer || !this.active) return;
    this.stopped = false;
    this.timer = setInterval(() => this.pumpSoon(0), this.sweepEveryMs);
    this.timer.unref();
    this.pumpSoon(0);
  }

  /** Attempts what is due soon (after a sign-up's answer went out, say), together with what else is owed meanwhile. */
  deliverSoon(): void {
    // With no channel, nothing is to be sent soon: the next sweep moves the owing along.
    if (this.kinds.length > 0 && !this.yielding()) this.pumpSoon(this.gatherMs);
  }

  /**
   * Whether the main thread was busier than yieldAbove since the last look (lib/event-loop-load.ts).
   * At launch volume every request's worth of the main thread counts: the deliveries then wait
   * (their claims, outcomes and messages cost main-thread time), and catch up when it eases.
   */
  private yielding(): boolean {
    return this.load?.saturated() ?? false;
  }

  /** Resolves when the worker is idle: no claim under way or asked for, nothing it claimed still being attempted or recorded. */
  async idle(): Promise<void> {
    while (this.soon || this.pumping || this.settling.size > 0) {
      if (this.soon) await new Promise((resolve) => setTimeout(resolve, this.gatherMs));
      await this.pumping;
      await Promise.all(this.settling);
    }
  }

  /**
   * Stops claiming. Attempts under way get `graceMs` to finish and be recorded;
   * those still running then are cut off (recorded as due again at once) and get
   * a moment to be recorded. Only then is whatever this instance still holds
   * and is not attempting handed back (its lease cleared), so another instance
   * attempts it at once instead of after the lease, and never while it may
   * still be on its way.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.soon);
    this.timer = undefined;
    this.soon = undefined;
    if (!(await this.idleWithin(graceMs))) {
      for (const { controller } of this.inFlight.values()) controller.abort(new Error("the instance is shutting down"));
      for (const cutOff of this.awaitingAnswer) cutOff();
      await this.idleWithin(2_000);
    }
    await this.database().outboxMessage.updateMany({
      where: { leaseOwner: this.options.owner, status: "pending", id: { notIn: [...this.inFlight.keys()] } },
      data: { leaseOwner: null, leaseExpiresAt: null },
    });
  }

  /**
   * One claim of each kind, attempted at once; resolves when every attempt it started is recorded.
   * Returns how many rows it claimed. (The running site claims through deliverSoon and start.)
   */
  async sweep(): Promise<number> {
    const started = await this.claimAndAttempt();
    await Promise.all(started);
    return started.length;
  }

  private idleWithin(ms: number): Promise<boolean> {
    return Promise.race([this.idle().then(() => true), new Promise<false>((resolve) => setTimeout(resolve, ms, false).unref())]);
  }

  private pumpSoon(delayMs: number): void {
    if (this.stopped || !this.active) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.pumping = this.pump().finally(() => (this.pumping = null));
    }, delayMs);
  }

  /** Claims while full claims say more is due and there are places free; then prunes now and then. */
  private async pump(): Promise<void> {
    try {
      do {
        this.pumpAgain = false;
        await this.claimAndAttempt();
      } while (this.pumpAgain && !this.stopped && !this.yielding());
      await this.pruneNowAndThen();
    } catch (error) {
      log.error(
        { fault: "delivery_worker", owner: this.options.owner, ...errorFields(error) },
        "delivery worker pass failed; it tries again at its next look",
      );
    }
  }

  /** Claims what each kind has places for, starts the attempts, and returns each attempt's way to its record. */
  private async claimAndAttempt(): Promise<Promise<void>[]> {
    const size = this.yielding() ? YIELDING_BATCH : this.batchSize;
    if (this.options.owe && (await this.options.owe(this.database(), this.deliveryKinds, new Date(this.now()), size)))
      this.pumpAgain = true;
    await this.settleNowAndThen();
    if (this.kinds.length > 0) await this.options.ready?.();
    const claimed: Delivery[] = [];
    for (const kind of this.kinds) {
      const quiet = this.quietSize(kind);
      if (quiet === 0) continue;
      claimed.push(...(await this.claimKind(kind, quiet ?? size, quiet !== undefined)));
    }
    if (claimed.length === 0) return [];
    const entries = await this.database().waitlistEntry.findMany({
      where: { id: { in: [...new Set(claimed.map((row) => row.entryId))] } },
    });
    const entryById = new Map(entries.map((entry) => [entry.id, entry]));
    return claimed.map((delivery) => this.attemptAndRecord(delivery, entryById.get(delivery.entryId)));
  }

  private attemptAndRecord(delivery: Delivery, entry: WaitlistEntry | undefined): Promise<void> {
    const controller = new AbortController();
    this.inFlight.set(delivery.id, { controller, kind: delivery.kind, retry: delivery.attempt > 1 });
    const settled = this.attempt(delivery, entry, controller)
      .then((outcome) => this.recorder.submit({ delivery, outcome }))
      .catch((error: unknown) => {
        // Not recorded: the row keeps its lease until it runs out, then any instance tries it again.
        log.error(
          { fault: "delivery_worker", owner: this.options.owner, delivery_id: delivery.id, ...errorFields(error) },
          "a delivery's outcome could not be recorded",
        );
      })
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.settling.delete(settled);
        if (this.roomAgain(delivery.kind) && !this.yielding()) this.pumpSoon(0);
      });
    this.settling.add(settled);
    return settled;
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
    const deadline = Date.now() + deadlineMs;
    const timer = setTimeout(() => controller.abort(deadlinePassed), deadlineMs);
    // Settles when the attempt is aborted, even if the channel itself never does. At the deadline
    // the channel first gets answerGraceMs to say how the attempt ended: an answer that came in
    // just before the cut-off, and waits to be read in a thread the machine starves, is a delivery;
    // taken for a cut-off, the message would go out twice.
    let onAbort!: () => void;
    let answerTimer: NodeJS.Timeout | undefined;
    let cutOffNow!: () => void;
    const aborted = new Promise<Attempted>((resolve) => {
      cutOffNow = () => resolve({ delivered: false, retry: true, problem: `cut off after ${deadlineMs} ms` });
      onAbort = () => {
        if (signal.reason !== deadlinePassed) return cutOffNow();
        answerTimer = setTimeout(cutOffNow, this.answerGraceMs);
        this.awaitingAnswer.add(cutOffNow);
      };
    });
    signal.addEventListener("abort", onAbort, { once: true });
    // Once the row is marked handed over, the channel finishes the message whatever the deadline: an
    // attempt cut off after that is taken as delivered, never tried again (a retry would clear the
    // mark). One cut off while the mark is being written waits for it (`marking`): recorded as a
    // retry first, the row would go out again while the channel finishes it.
    let marking: Promise<boolean> | undefined;
    const handOver: HandOver = () => {
      if (signal.aborted) return Promise.resolve(false);
      marking = this.handOvers.submit(delivery.id, deadline).catch(() => false);
      return marking;
    };
    let outcome: Attempted;
    try {
      outcome = await Promise.race([this.channels[delivery.kind]!(delivery, entry, signal, deadline, handOver), aborted]);
    } catch (error) {
      outcome = { delivered: false, retry: true, problem: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
      clearTimeout(answerTimer);
      this.awaitingAnswer.delete(cutOffNow);
      signal.removeEventListener("abort", onAbort);
    }
    if (outcome.delivered) return outcome;
    if (marking && (await marking) && (signal.aborted || outcome.atDeadline)) {
      log.warn(
        { fault: "delivery_handed_over", kind: delivery.kind, delivery_id: delivery.id, entry_id: delivery.entryId },
        "an email handed over got no answer before its deadline: taken as delivered",
      );
      return { delivered: true };
    }
    // Cut off by a shutdown: not the receiver's fault, so due again at once, from any instance.
    if (signal.aborted && signal.reason !== deadlinePassed)
      return { delivered: false, retry: true, problem: "cut off by a shutdown", now: true };
    // Cut off at the deadline by this worker's timer or by the channel's own (the sending thread
    // keeps the deadline too): whichever came first, the operator reads one fault.
    if (signal.aborted || outcome.atDeadline) {
      log.warn(
        {
          fault: "delivery_attempt_deadline",
          kind: delivery.kind,
          delivery_id: delivery.id,
          entry_id: delivery.entryId,
          deadline_ms: deadlineMs,
        },
        "delivery attempt cut off at its deadline; it will be retried",
      );
    }
    return outcome;
  }

  /**
   * For a quiet kind while the site is busier than its share: QUIET_BATCH once a sweep, else 0 (not
   * now). undefined: claimed as any other kind.
   */
  private quietSize(kind: DeliveryKind): number | undefined {
    const quiet = this.quiet.get(kind);
    if (!quiet || !quiet.load.saturated()) return undefined;
    const now = this.now();
    if (now - quiet.lastBusyClaim < this.sweepEveryMs) return 0;
    quiet.lastBusyClaim = now;
    return QUIET_BATCH;
  }

  /** Whether enough places have freed up for the claim a kind is waiting for to be worth making. */
  private roomAgain(kind: DeliveryKind): boolean {
    const waiting = this.waitingForRoom.get(kind);
    if (waiting === undefined) return false;
    const places = this.placesFor(kind);
    const enough = Math.max(1, Math.floor(this.batchSize / 4));
    return waiting === "any" ? places.free >= enough : places.forRetries >= enough;
  }

  /** Places free for a kind's attempts, and how many of them retries may take. */
  private placesFor(kind: DeliveryKind): { free: number; forRetries: number } {
    let all = 0;
    let retries = 0;
    for (const attempt of this.inFlight.values()) {
      if (attempt.kind !== kind) continue;
      all += 1;
      if (attempt.retry) retries += 1;
    }
    const free = Math.max(0, this.maxInFlight - all);
    return { free, forRetries: Math.min(free, Math.max(0, Math.floor(this.maxInFlight / 2) - retries)) };
  }

  /** Claims up to `size` due rows of a kind, as places allow (claimStatement); `quiet`: a busy site's few, with no claim again soon. */
  private async claimKind(kind: DeliveryKind, size: number, quiet = false): Promise<Delivery[]> {
    const places = this.placesFor(kind);
    const room = Math.min(size, places.free);
    if (room === 0) {
      this.waitingForRoom.set(kind, "any");
      return [];
    }
    const retryRoom = Math.min(room, places.forRetries);
    const rows = await whileBusy(this.database(), (db) =>
      db.$queryRaw<ClaimedRow[]>(
        claimStatement({
          kind,
          room,
          retryRoom,
          now: this.now(),
          owner: this.options.owner,
          leaseMs: this.options.leaseMs,
          cap: this.options.hourlyCaps?.[kind],
          keyCap: this.options.hourlyCapsPerKey?.[kind],
          capKinds: this.options.capKinds?.[kind],
        }),
      ),
    );
    const claimed = rows.filter((row) => row.claimed_minute !== null);
    // A claim that took all it could means more may be due: claimed again at once if the batch was
    // the limit, else as the places that limited it free up.
    const retries = claimed.filter((row) => Number(row.attempts) > 1).length;
    this.waitingForRoom.delete(kind);
    if (quiet) return claimed.map(deliveryOf);
    if (claimed.length >= room && room < size) this.waitingForRoom.set(kind, "any");
    else if (claimed.length >= room) this.pumpAgain = true;
    else if (retries >= retryRoom && retryRoom < size) this.waitingForRoom.set(kind, "retries");
    return claimed.map(deliveryOf);
  }

  /**
   * The outcomes of a moment in one statement, only for rows this worker still holds. Delivered
   * rows get their time; the others are due again after the backoff of their attempt, or failed.
   */
  private async record(database: Database, batch: Outcome[]): Promise<void> {
    const now = this.now();
    const outcomes = batch.map(({ delivery, outcome }): OutcomeRow => {
      if (outcome.delivered) return [delivery.id, "delivered", null, null, 0];
      const delay = outcome.now ? 0 : this.options.retryDelaysMs[delivery.attempt - 1];
      if (!outcome.retry || delay === undefined) return [delivery.id, "failed", null, outcome.problem, 0];
      return [delivery.id, "pending", timestamp(new Date(now + delay)), outcome.problem, outcome.now ? 1 : 0];
    });
    const failed = await database.$queryRaw<{ id: string }[]>(recordStatement(outcomes, this.options.owner, now));
    const failedIds = new Set(failed.map((row) => row.id).filter((id) => id !== null));
    for (const { delivery, outcome } of batch) {
      if (!failedIds.has(delivery.id) || outcome.delivered) continue;
      // The ids let an operator find it (npm run waitlist -- deliveries); nothing the visitor typed is logged.
      log.error(
        {
          fault: "delivery_failed",
          kind: delivery.kind,
          entry_id: delivery.entryId,
          delivery_id: delivery.id,
          attempts: delivery.attempt,
          problem: outcome.problem,
        },
        `${delivery.kind} delivery failed for good`,
      );
    }
    const refused = batch.flatMap(({ delivery, outcome }) =>
      !outcome.delivered && outcome.refused ? [{ entryId: delivery.entryId, deliveryId: delivery.id, ...outcome.refused }] : [],
    );
    if (refused.length > 0 && this.options.onRefused) await this.options.onRefused(this.database(), refused);
  }

  /**
   * Handed over: rows whose instance died after handing their message over are taken as delivered
   * (settleHandedOverStatement), looked for every half lease, since a lease must lapse first.
   */
  private async settleNowAndThen(): Promise<void> {
    const now = this.now();
    if (now < this.nextSettle || !this.kinds.includes("update")) return;
    this.nextSettle = now + this.attemptDeadlineMs;
    const settled = await whileBusy(this.database(), (db) => db.$executeRaw(settleHandedOverStatement(now)));
    if (settled > 0)
      log.warn(
        { fault: "delivery_handed_over", owner: this.options.owner, rows: settled },
        "emails handed over by an instance that stopped before the answer are taken as delivered",
      );
  }

  /** Prunes once a minute, and at the next pass again while a batch was full; never while the site is saturated. */
  private async pruneNowAndThen(): Promise<void> {
    const now = this.now();
    if (now < this.nextPrune || this.yielding()) return;
    this.nextPrune = now + PRUNE_EVERY_MS;
    if ((await this.prune()) >= PRUNE_BATCH) this.nextPrune = 0;
  }

  /**
   * Deletes a batch of delivered rows older than a week (PRUNE_BATCH, oldest first) and the caps'
   * minutes older than two hours; returns how many rows it deleted. Each pass runs it now and then.
   * Written as the worker's own writes are (OWN_WRITE): a prune lost to a power cut is made again
   * at the next one, and another process's lock is waited out between tries, not in SQLite with
   * the site's connection held (at a million rows a synced prune held it 22-29 ms, 3 ms of it CPU).
   */
  async prune(): Promise<number> {
    const now = this.now();
    const deleted = await whileBusy(this.database(), (database) => database.$executeRaw(pruneDeliveredStatement(now)));
    await whileBusy(this.database(), (database) => database.$executeRaw(pruneMinutesStatement(now)));
    return deleted;
  }
}
