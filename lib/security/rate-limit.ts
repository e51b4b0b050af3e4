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
import "server-only";
import { isIPv6 } from "node:net";
import { getDatabase, Prisma, whileBusy, WITHOUT_SYNC, type Database } from "../db";
import { GroupCommit, type Outcome } from "../group-commit";
import { ApiError } from "../http";
import { CLIENT_ADDRESS_HEADER, UNKNOWN_CLIENT } from "./client-address";

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** What the sign-up handler asks before anything else. */
export interface RateLimiter {
  /**
   * Records one attempt by `key` at `now` (ms since 1970) and says whether it may go ahead.
   * `deadline` (ms since 1970): an attempt not yet recorded by then is dropped (NotWritten).
   */
  attempt(key: string, now: number, deadline?: number): Promise<RateLimitDecision>;
}

type SharedRateLimiterOptions = {
  max: number;
  windowMs: number;
  database?: () => Database;
  /** How often windows that have ended are deleted, so the table holds only live ones. */
  cleanUpEveryMs?: number;
  /** Attempts that may wait for the next batch; more are refused (NotWritten "overloaded"). */
  maxPending?: number;
};

type Attempt = { key: string; now: number };

/**
 * What a client address is counted as: an IPv4 address on its own, an IPv6
 * address by its /64 network. One subscriber, one phone or one server is
 * usually handed a whole /64, so counting each of its 2^64 addresses on its own
 * would give a bot that many buckets. Anything else (UNKNOWN_CLIENT) as it is.
 */
export function limitKeyOf(address: string): string {
  if (!isIPv6(address)) return address;
  const [head = "", tail = ""] = address.split("::");
  const headParts = head ? head.split(":") : [];
  const tailParts = tail ? tail.split(":") : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is two groups, beyond the /64 either way.
  const groupsIn = (parts: string[]) => parts.reduce((n, part) => n + (part.includes(".") ? 2 : 1), 0);
  const missing = address.includes("::") ? 8 - groupsIn(headParts) - groupsIn(tailParts) : 0;
  const groups = [...headParts, ...Array<string>(missing).fill("0"), ...tailParts];
  const network = groups.slice(0, 4).map((group) => (parseInt(group, 16) || 0).toString(16));
  return `${network.join(":")}::/64`;
}
type Counted = { key: string; attempts: bigint | number; expires_at: bigint | number };

export class SharedRateLimiter implements RateLimiter {
  readonly max: number;
  readonly windowMs: number;
  private readonly database: () => Database;
  private readonly cleanUpEveryMs: number;
  private lastCleanUp = 0;
  private readonly writer: GroupCommit<Attempt, RateLimitDecision>;

  constructor({ max, windowMs, database = getDatabase, cleanUpEveryMs = 60_000, maxPending }: SharedRateLimiterOptions) {
    this.max = max;
    this.windowMs = windowMs;
    this.database = database;
    this.cleanUpEveryMs = cleanUpEveryMs;
    this.writer = new GroupCommit((batch) => this.record(batch), { maxPending });
  }

  attempt(key: string, now: number, deadline?: number): Promise<RateLimitDecision> {
    return this.writer.submit({ key: limitKeyOf(key), now }, deadline);
  }

  /** Deletes the windows that have ended by `now`; returns how many. */
  async removeEnded(now: number): Promise<number> {
    const { count } = await this.database().rateLimitWindow.deleteMany({ where: { expiresAt: { lte: BigInt(now) } } });
    return count;
  }

  /**
   * One upsert for the batch, with one row per key: `n`, the key's attempts in
   * this batch. A window that has ended (its end is at or before the attempt's
   * time, which is the new window's end minus the window's length) starts again
   * at n; otherwise n is added. SQLite computes every SET expression from the
   * row as it was, so both CASEs see the old end. RETURNING gives each key's
   * count after the batch; its attempts in this batch are the last n of it, in
   * arrival order.
   */
  private async record(batch: Attempt[]): Promise<Outcome<RateLimitDecision>[]> {
    const perKey = new Map<string, { n: number; now: number }>();
    for (const { key, now } of batch) {
      const counted = perKey.get(key);
      perKey.set(key, { n: (counted?.n ?? 0) + 1, now: Math.max(now, counted?.now ?? now) });
    }
    const rows = JSON.stringify([...perKey].map(([key, { n, now }]) => [key, n, now + this.windowMs]));
    // A count lost to a power cut costs nothing worth a sync to disk (lib/db/). One statement, so a
    // lock it meets before the busy timeout ran out can be met again (lib/db whileBusy).
    const counted = await whileBusy(
      this.database(),
      (db) => db.$queryRaw<Counted[]>`${Prisma.raw(WITHOUT_SYNC)}
      INSERT INTO rate_limit_windows (key, attempts, expires_at)
      SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(${rows}) WHERE true
      ON CONFLICT (key) DO UPDATE SET
        attempts = CASE WHEN rate_limit_windows.expires_at <= excluded.expires_at - ${this.windowMs}
                        THEN excluded.attempts ELSE rate_limit_windows.attempts + excluded.attempts END,
        expires_at = CASE WHEN rate_limit_windows.expires_at <= excluded.expires_at - ${this.windowMs}
                          THEN excluded.expires_at ELSE rate_limit_windows.expires_at END
      RETURNING key, attempts, expires_at`,
    );

    const windows = new Map(counted.map((row) => [row.key, { attempts: Number(row.attempts), endsAt: Number(row.expires_at) }]));
    const seen = new Map<string, number>();
    this.cleanUpNowAndThen(Math.max(...batch.map((attempt) => attempt.now)));
    return batch.map(({ key, now }) => {
      const window = windows.get(key)!;
      const nth = seen.get(key) ?? 0;
      seen.set(key, nth + 1);
      const attempt = window.attempts - perKey.get(key)!.n + 1 + nth;
      if (attempt <= this.max) return { ok: { allowed: true } };
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

/** What counting a form post needs: the site's origin, the limiter, the clock and a request's deadline. */
export type FormPostServices = { siteOrigin: string; formPosts: RateLimiter; now: () => number; deadlineMs: number };

/**
 * Counts a form post (a sign-up, by the API or the join page) against its client's rate limit, or
 * refuses it (429): every attempt counts, whatever becomes of it, so probing costs the same as
 * signing up. `deadline` (ms since 1970): a count not yet written by then is dropped (503).
 */
export async function countFormPost(headers: Headers, services: FormPostServices, deadline: number): Promise<void> {
  const client = headers.get(CLIENT_ADDRESS_HEADER) ?? UNKNOWN_CLIENT;
  const decision = await services.formPosts.attempt(client, services.now(), deadline);
  if (!decision.allowed) throw new ApiError("rate_limited", { headers: { "Retry-After": String(decision.retryAfterSeconds) } });
}
