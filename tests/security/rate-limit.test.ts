/**
 * The rate limit's counts live in the database, so every instance on it shares
 * them. Several clients on one file stand in for several server processes.
 */
import { describe, expect, it } from "vitest";
import { createDatabase, getDatabase, type Database } from "@/lib/db";
import { databaseSettings, parseEnv } from "@/lib/env";
import { limitKeyOf, SharedRateLimiter } from "@/lib/security/rate-limit";
import { setUpTestDatabase } from "../support/database";

const { url } = setUpTestDatabase();

const windows = () => getDatabase().rateLimitWindow.findMany({ orderBy: { key: "asc" } });

describe("what an address is counted as", () => {
  it("an IPv4 address on its own, an IPv6 address by its /64 network", () => {
    expect(limitKeyOf("203.0.113.7")).toBe("203.0.113.7");
    expect(limitKeyOf("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(limitKeyOf("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(limitKeyOf("2001:0db8:0001:0002:0000:0000:0000:0009")).toBe("2001:db8:1:2::/64");
    expect(limitKeyOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(limitKeyOf("2001:db8:1:3::1")).not.toBe(limitKeyOf("2001:db8:1:2::1"));
    expect(limitKeyOf("unknown")).toBe("unknown");
  });

  it("lets one /64 have the attempts of one address, whatever addresses in it it uses", async () => {
    const limiter = new SharedRateLimiter({ max: 3, windowMs: 60_000 });
    const decisions = [];
    for (let i = 1; i <= 5; i += 1) decisions.push(await limiter.attempt(`2001:db8:77:1::${i.toString(16)}`, 1_000));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false, false]);
    expect(await limiter.attempt("2001:db8:77:2::1", 1_000)).toEqual({ allowed: true });
  });
});

describe("SharedRateLimiter", () => {
  it("allows max attempts per window and key, says how long to wait, and starts again after the window", async () => {
    const limiter = new SharedRateLimiter({ max: 2, windowMs: 10_000 });
    expect(await limiter.attempt("a", 0)).toEqual({ allowed: true });
    expect(await limiter.attempt("a", 1_000)).toEqual({ allowed: true });
    expect(await limiter.attempt("a", 1_500)).toEqual({ allowed: false, retryAfterSeconds: 9 });
    expect(await limiter.attempt("a", 9_999)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(await limiter.attempt("b", 9_999)).toEqual({ allowed: true });
    expect(await limiter.attempt("a", 10_000)).toEqual({ allowed: true });
    expect(await windows()).toEqual([
      { key: "a", attempts: 1, expiresAt: 20_000n },
      { key: "b", attempts: 1, expiresAt: 19_999n },
    ]);
  });

  it("counts attempts that arrive together exactly: 12 at once with a limit of 5 let 5 through", async () => {
    const limiter = new SharedRateLimiter({ max: 5, windowMs: 60_000 });
    const decisions = await Promise.all(Array.from({ length: 12 }, () => limiter.attempt("burst", 1_000)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(5);
    expect(decisions.slice(0, 5).every((decision) => decision.allowed)).toBe(true);
    expect(decisions.slice(5)).toEqual(Array(7).fill({ allowed: false, retryAfterSeconds: 60 }));
  });

  it("is one count for every instance on the database: the sixth attempt is refused whichever instance gets it", async () => {
    const clients: Database[] = [0, 1, 2].map(() => createDatabase(databaseSettings({ ...parseEnv(), DATABASE_URL: url })));
    try {
      const instances = clients.map((client) => new SharedRateLimiter({ max: 5, windowMs: 600_000, database: () => client }));
      const sequential = [];
      for (let i = 0; i < 7; i += 1) sequential.push((await instances[i % 3]!.attempt("198.51.100.1", 5_000)).allowed);
      expect(sequential).toEqual([true, true, true, true, true, false, false]);

      // All at once through the three instances: still five.
      const together = await Promise.all(Array.from({ length: 30 }, (_, i) => instances[i % 3]!.attempt("198.51.100.2", 5_000)));
      expect(together.filter((decision) => decision.allowed)).toHaveLength(5);
    } finally {
      await Promise.all(clients.map((client) => client.$disconnect()));
    }
  });

  it("deletes windows that have ended, so the table holds only live ones", async () => {
    const limiter = new SharedRateLimiter({ max: 1, windowMs: 1_000, cleanUpEveryMs: 60_000 });
    await Promise.all(Array.from({ length: 500 }, (_, i) => limiter.attempt(`10.0.${i >> 8}.${i & 255}`, 0)));
    expect(await getDatabase().rateLimitWindow.count()).toBe(500);

    // A minute later, the next attempt sweeps the ended windows out (without making anyone wait for it).
    await limiter.attempt("fresh", 60_000);
    await expect.poll(() => getDatabase().rateLimitWindow.count()).toBe(1);
    expect((await windows()).map((window) => window.key)).toEqual(["fresh"]);
    expect(await limiter.removeEnded(61_000)).toBe(1);
  });
});
