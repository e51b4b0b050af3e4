/**
 * Counts attempts per key (a client address) in fixed windows: at most `max`
 * attempts from the first attempt of a window until `windowMs` later.
 *
 * Written here rather than taken from a package because it is a few lines,
 * takes the clock as a parameter (so tests can move time instead of waiting),
 * and bounds its own memory. It is per process: several server processes
 * would each allow `max` (see docs/security.md).
 */
export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

type Window = { startedAt: number; count: number };

export type RateLimiterOptions = {
  max: number;
  windowMs: number;
  /** Beyond this many tracked addresses the oldest windows are dropped first. */
  maxKeys?: number;
};

export class FixedWindowRateLimiter {
  readonly max: number;
  readonly windowMs: number;
  private readonly maxKeys: number;
  // A Map iterates in insertion order, and a key is re-inserted when its
  // window restarts, so the first entries are always the oldest windows.
  private readonly windows = new Map<string, Window>();

  constructor({ max, windowMs, maxKeys = 100_000 }: RateLimiterOptions) {
    this.max = max;
    this.windowMs = windowMs;
    this.maxKeys = maxKeys;
  }

  /** Records one attempt by `key` at `now` and says whether it may go ahead. */
  attempt(key: string, now: number): RateLimitDecision {
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.windowMs) {
      this.windows.delete(key);
      this.dropExpired(now);
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= this.max) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000)) };
  }

  /** How many addresses are being tracked, for tests of the memory bound. */
  get size(): number {
    return this.windows.size;
  }

  private dropExpired(now: number): void {
    for (const [key, window] of this.windows) {
      const expired = now - window.startedAt >= this.windowMs;
      if (!expired && this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}
