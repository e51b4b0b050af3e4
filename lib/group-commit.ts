/**
 * Group commit. Every commit of the site's database is synced to disk, and
 * every call through Prisma Client costs a fixed amount of CPU (about 0.3-0.5
 * ms here, docs/performance.md) whatever it carries. So work that arrives
 * during one turn of the event loop is written by one call, in one transaction
 * with one sync, and the next batch gathers while that write is under way.
 * Each caller is answered only after the batch that holds its item committed,
 * so nothing is acknowledged before it is on disk.
 */
export type Outcome<Result> = { ok: Result } | { error: unknown };

type Waiting<Item, Result> = { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void };

export class GroupCommit<Item, Result> {
  private pending: Waiting<Item, Result>[] = [];
  private scheduled = false;
  private writing: Promise<void> | null = null;

  /**
   * `write` stores a batch and returns one outcome per item, in order: an item
   * that fails on its own (a refused row) fails alone. If `write` throws, the
   * whole batch failed (nothing was committed) and every caller gets the error.
   */
  constructor(private readonly write: (items: Item[]) => Promise<Outcome<Result>[]>) {}

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
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
    setImmediate(() => {
      this.scheduled = false;
      this.writing = this.flush().finally(() => {
        this.writing = null;
        if (this.pending.length > 0) this.schedule();
      });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
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
