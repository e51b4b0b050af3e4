/**
 * The rate limit's count, as a database task (lib/db/tasks.ts): on the
 * embedded file it runs in the database thread, on its own Prisma Client, so
 * the main thread sends one message per batch of attempts (rate-limit.ts
 * decides what each count means). Loaded there from source: it imports only
 * the generated client and the marker below.
 */
import "server-only";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import { WITHOUT_SYNC } from "../db/without-sync";

export type AttemptCounts = {
  /** As JSON, one row per key: [key, its attempts in this batch, the end of a window that starts now]. */
  rows: string;
  windowMs: number;
};

/** Each key's count after the batch, and when its window ends (ms since 1970). */
export type CountedWindow = { key: string; attempts: bigint | number; expires_at: bigint | number };

/**
 * One upsert for the batch. A window that has ended (its end is at or before
 * the attempt's time, which is the new window's end minus the window's length)
 * starts again at n; otherwise n is added. SQLite computes every SET expression
 * from the row as it was, so both CASEs see the old end. A count lost to a
 * power cut costs nothing worth a sync to disk (lib/db/without-sync.ts).
 */
export function countAttempts(database: PrismaClient, { rows, windowMs }: AttemptCounts): Promise<CountedWindow[]> {
  return database.$queryRaw<CountedWindow[]>`${Prisma.raw(WITHOUT_SYNC)}
    INSERT INTO rate_limit_windows (key, attempts, expires_at)
    SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(${rows}) WHERE true
    ON CONFLICT (key) DO UPDATE SET
      attempts = CASE WHEN rate_limit_windows.expires_at <= excluded.expires_at - ${windowMs}
                      THEN excluded.attempts ELSE rate_limit_windows.attempts + excluded.attempts END,
      expires_at = CASE WHEN rate_limit_windows.expires_at <= excluded.expires_at - ${windowMs}
                        THEN excluded.expires_at ELSE rate_limit_windows.expires_at END
    RETURNING key, attempts, expires_at`;
}

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** One attempt: its key (limitKeyOf a client address) and when it came (ms since 1970). */
export type Attempt = { key: string; now: number };

/** An attempt's place in its batch: its key, and it is the `nth` (from 0) of that key's `n` attempts there. */
export type AttemptPlace = { key: string; nth: number; n: number; now: number };

/**
 * A batch of attempts as the count takes them, one row per key with its
 * attempts summed (a flood from one address is one row), and each attempt's
 * place among its key's, in arrival order.
 */
export function attemptCounts(batch: readonly Attempt[], windowMs: number): { counts: AttemptCounts; places: AttemptPlace[] } {
  const perKey = new Map<string, { n: number; now: number }>();
  const places = batch.map(({ key, now }) => {
    const counted = perKey.get(key);
    perKey.set(key, { n: (counted?.n ?? 0) + 1, now: Math.max(now, counted?.now ?? now) });
    return { key, nth: counted?.n ?? 0, n: 0, now };
  });
  for (const place of places) place.n = perKey.get(place.key)!.n;
  const rows = JSON.stringify([...perKey].map(([key, { n, now }]) => [key, n, now + windowMs]));
  return { counts: { rows, windowMs }, places };
}

/** The count's answer by key, for decisionFor. */
export function windowsByKey(counted: readonly CountedWindow[]): Map<string, CountedWindow> {
  return new Map(counted.map((row) => [row.key, row]));
}

/**
 * Whether the attempt at `place` may go ahead, from its key's count after the
 * batch: its attempts in the batch are the last n of that count, in arrival order.
 */
export function decisionFor(place: AttemptPlace, windows: ReadonlyMap<string, CountedWindow>, max: number): RateLimitDecision {
  const window = windows.get(place.key);
  if (!window) throw new Error("the count returned no window for an attempt's key");
  const attempt = Number(window.attempts) - place.n + 1 + place.nth;
  if (attempt <= max) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((Number(window.expires_at) - place.now) / 1000)) };
}
