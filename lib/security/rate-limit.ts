/**
 * Counts sign-up attempts per key (a client address) in fixed windows: at most
 * `max` attempts from the first attempt of a window until `windowMs` later.
 *
 * The counts live in the database (rate_limit_windows), so every instance on
 * it shares them: the N-th attempt from one address is refused whichever
 * instance it reaches. Each count is decided by the database in the same
 * statement that records it (an upsert that returns the new count), never by a
 * read and a later write, so two instances cannot both let the N-th through.
 *
 * Why not rate-limiter-flexible's Prisma store: it makes two Prisma calls per
 * attempt (a delete of an expired window, then an upsert), about 1-2 ms of CPU
 * on our machines, as much again as the whole framework spends on a request
 * (docs/performance.md). Here attempts arriving in one turn of the event loop
 * are recorded by one statement (lib/group-commit.ts).
 */
import { getDatabase, type Database } from "../db";
import { GroupCommit, type Outcome } from "../group-commit";

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** What the sign-up handler asks before anything else. */
export interface RateLimiter {
  /** Records one attempt by `key` at `now` (ms since 1970) and says whether it may go ahead. */
  attempt(key: string, now: number): Promise<RateLimitDecision>;
}

export type SharedRateLimiterOptions = {
  max: number;
  windowMs: number;
  database?: () => Database;
  /** How often windows that have ended are deleted, so the table holds only live ones. */
  cleanUpEveryMs?: number;
};

type Attempt = { key: string; now: number };
type Counted = { key: string; attempts: bigint | number; expires_at: bigint | number };

export class SharedRateLimiter implements RateLimiter {
  readonly max: number;
  readonly windowMs: number;
  private readonly database: () => Database;
  private readonly cleanUpEveryMs: number;
  private lastCleanUp = 0;
  private readonly writer = new GroupCommit<Attempt, RateLimitDecision>((batch) => this.record(batch));

  constructor({ max, windowMs, database = getDatabase, cleanUpEveryMs = 60_000 }: SharedRateLimiterOptions) {
    this.max = max;
    this.windowMs = windowMs;
    this.database = database;
    this.cleanUpEveryMs = cleanUpEveryMs;
  }

  attempt(key: string, now: number): Promise<RateLimitDecision> {
    return this.writer.submit({ key, now });
  }

  /** Deletes the windows that have ended by `now`; returns how many. */
  async removeEnded(now: number): Promise<number> {
    const { count } = await this.database().rateLimitWindow.deleteMany({ where: { expiresAt: { lte: BigInt(now) } } });
    return count;
  }

  /**
   * One upsert for the batch, the attempts as one JSON parameter. A window that
   * has ended (its end is at or before the attempt's time, which is the new
   * window's end minus the window's length) starts again at 1. SQLite computes
   * every SET expression from the row as it was, so both CASEs see the old end.
   */
  private async record(batch: Attempt[]): Promise<Outcome<RateLimitDecision>[]> {
    const attempts = JSON.stringify(batch.map(({ key, now }) => ({ key, ends: now + this.windowMs })));
    const counted = await this.database().$queryRaw<Counted[]>`
      INSERT INTO rate_limit_windows (key, attempts, expires_at)
      SELECT json_extract(value, '$.key'), 1, json_extract(value, '$.ends') FROM json_each(${attempts}) WHERE true
      ON CONFLICT (key) DO UPDATE SET
        attempts = CASE WHEN rate_limit_windows.expires_at <= excluded.expires_at - ${this.windowMs}
                        THEN 1 ELSE rate_limit_windows.attempts + 1 END,
        expires_at = CASE WHEN rate_limit_windows.expires_at <= excluded.expires_at - ${this.windowMs}
                          THEN excluded.expires_at ELSE rate_limit_windows.expires_at END
      RETURNING key, attempts, expires_at`;

    // RETURNING gives one row per attempt in no promised order; one key's rows
    // carry its successive counts, which go to its attempts in arrival order.
    const byKey = new Map<string, { attempts: number; endsAt: number }[]>();
    for (const row of counted) {
      const list = byKey.get(row.key) ?? [];
      list.push({ attempts: Number(row.attempts), endsAt: Number(row.expires_at) });
      byKey.set(row.key, list);
    }
    for (const list of byKey.values()) list.sort((a, b) => a.attempts - b.attempts);

    this.cleanUpNowAndThen(Math.max(...batch.map((attempt) => attempt.now)));
    return batch.map(({ key, now }) => {
      const window = byKey.get(key)!.shift()!;
      if (window.attempts <= this.max) return { ok: { allowed: true } };
      return { ok: { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) } };
    });
  }

  /** Not awaited by any request; a failure is logged and tried again next time. */
  private cleanUpNowAndThen(now: number): void {
    if (now - this.lastCleanUp < this.cleanUpEveryMs) return;
    this.lastCleanUp = now;
    this.removeEnded(now).catch((error: unknown) => {
      console.error(`[waitlist] removing ended rate-limit windows failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}

