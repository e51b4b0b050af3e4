/**
 * Group commit. Every commit of the site's database is synced to disk, and
 * every call through Prisma Client costs a fixed amount of CPU whatever it
 * carries (docs/performance.md, "Sign-ups"). So work that arrives
 * during one turn of the event loop is written by one call, in one transaction
 * with one sync, and the next batch gathers while that write is under way.
 * Each caller is answered only after the batch that holds its item committed,
 * so nothing is acknowledged before it is on disk.
 */
import "server-only";
import type { FaultKind } from "./log";

export type Outcome<Result> = { ok: Result } | { error: unknown };

/**
 * Refused before it was written, so nothing of it was stored: too many items
 * were waiting already ("overloaded"), or the caller's deadline passed while
 * it waited ("request_deadline"). Temporary: the visitor gets 503.
 */
export class NotWritten extends Error {
  constructor(readonly kind: Extract<FaultKind, "overloaded" | "request_deadline">) {
    super(kind === "overloaded" ? "too many writes are waiting" : "the request's deadline passed before its write began");
    this.name = "NotWritten";
  }
}

type Waiting<Item, Result> = { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void; deadline?: number };

type GroupCommitOptions = {
  /** Items that may wait for the next batch; more are refused at once (NotWritten "overloaded"). */
  maxPending?: number;
  /**
   * How long a batch gathers after its first item before it is written (default: until the end of
   * the event loop's turn). For work nobody waits on, such as the outcomes of deliveries.
   */
  gatherMs?: number;
};

/** How often waiting items are checked against their deadlines (one timer per writer, only while some wait). */
const DEADLINE_CHECK_MS = 100;

export class GroupCommit<Item, Result> {
  private pending: Waiting<Item, Result>[] = [];
  private scheduled = false;
  private writing: Promise<void> | null = null;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private readonly maxPending: number;
  private readonly gatherMs: number;

  /**
   * `write` stores a batch and returns one outcome per item, in order: an item
   * that fails on its own (a refused row) fails alone. If `write` throws, the
   * whole batch failed (nothing was committed) and every caller gets the error.
   */
  constructor(
    private readonly write: (items: Item[]) => Promise<Outcome<Result>[]>,
    options: GroupCommitOptions = {},
  ) {
    this.maxPending = options.maxPending ?? Infinity;
    this.gatherMs = options.gatherMs ?? 0;
  }

  /**
   * Queues `item` for the next batch. When `deadline` (ms since 1970, the
   * wall clock) passes while the item still waits, it leaves the queue
   * unwritten and the promise rejects with NotWritten "request_deadline"; once
   * its batch is being written it runs to its outcome, so an answer never says
   * "not stored" about something that was. (A deadline is a number checked by
   * one timer, not an AbortSignal per item: Node 20 keeps a timeout signal
   * that had a listener alive, which under load grew the heap without bound.)
   */
  submit(item: Item, deadline?: number): Promise<Result> {
    if (deadline !== undefined && Date.now() >= deadline) return Promise.reject(new NotWritten("request_deadline"));
    if (this.pending.length >= this.maxPending) return Promise.reject(new NotWritten("overloaded"));
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject, deadline });
      if (deadline !== undefined) this.watchDeadlines();
      this.schedule();
    });
  }

  private watchDeadlines(): void {
    if (this.deadlineTimer) return;
    this.deadlineTimer = setInterval(() => this.expire(), DEADLINE_CHECK_MS);
    this.deadlineTimer.unref();
  }

  /** Takes out, unwritten, the waiting items whose deadline has passed; stops watching when none has one. */
  private expire(): void {
    const now = Date.now();
    const kept: Waiting<Item, Result>[] = [];
    for (const waiting of this.pending) {
      if (waiting.deadline !== undefined && waiting.deadline <= now) waiting.reject(new NotWritten("request_deadline"));
      else kept.push(waiting);
    }
    this.pending = kept;
    if (!kept.some((waiting) => waiting.deadline !== undefined)) {
      clearInterval(this.deadlineTimer);
      this.deadlineTimer = undefined;
    }
  }

  /** Items waiting for the next batch (not counting the one being written). */
  get waiting(): number {
    return this.pending.length;
  }

  /** Resolves once everything submitted so far is written: for a graceful shutdown. */
  async drain(): Promise<void> {
    while (this.writing || this.scheduled || this.pending.length > 0) {
      await (this.writing ?? new Promise((resolve) => setImmediate(resolve)));
    }
  }

  private schedule(): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    const write = () => {
      this.scheduled = false;
      this.writing = this.flush().finally(() => {
        this.writing = null;
        if (this.pending.length > 0) this.schedule();
      });
    };
    if (this.gatherMs > 0) setTimeout(write, this.gatherMs);
    else setImmediate(write);
  }

  private async flush(): Promise<void> {
    // From here on the batch's items are written whatever their callers' deadlines say.
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    let outcomes: Outcome<Result>[];
    try {
      outcomes = await this.write(batch.map((waiting) => waiting.item));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, i) => {
      const outcome = outcomes[i]!;
      if ("ok" in outcome) waiting.resolve(outcome.ok);
      else waiting.reject(outcome.error);
    });
  }
}
