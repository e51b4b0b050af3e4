/**
 * Another connection holds the write lock for a moment (a second instance, the operator shell),
 * on the driver under test. The site's client must come out of it whole: on libSQL's file
 * engine one write that failed busy used to leave the client holding the lock for good
 * (lib/db/worker.mjs repairs it), so no process could write again.
 */
import { describe, expect, it } from "vitest";
import { getDatabase, Prisma, temporaryKind } from "@/lib/db";
import { withinRequestScope, type RequestScope } from "@/lib/db/request-scope";
import { holdWriteLock, setUpTestDatabase } from "../support/database";

const { file } = setUpTestDatabase();

const countOne = (key: string) =>
  getDatabase().$executeRaw`INSERT INTO rate_limit_windows (key, attempts, expires_at) VALUES (${key}, 1, 1)`;

describe("after a write met another connection's lock", () => {
  it("the client's later writes and transactions go through, and another connection can take the lock again", async () => {
    const lock = await holdWriteLock(file);
    let failure: unknown;
    try {
      // Waits up to the busy timeout on better-sqlite3 and fails at once on libSQL: busy either way.
      await countOne("during");
    } catch (error) {
      failure = error;
    } finally {
      await lock.release();
    }
    expect(temporaryKind(failure)).toBe("database_busy");

    const database = getDatabase();
    await database.$transaction([countOne("after-1"), countOne("after-2")]);
    await database.$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE rate_limit_windows SET attempts = attempts + 1 WHERE key = 'after-1'`;
    });
    await countOne("after-3");
    expect((await database.rateLimitWindow.findMany({ orderBy: { key: "asc" } })).map((row) => [row.key, row.attempts])).toEqual([
      ["after-1", 2],
      ["after-2", 1],
      ["after-3", 1],
    ]);

    // Nothing of this process still holds the lock: another connection gets it at once.
    const again = await holdWriteLock(file);
    await again.release();
  }, 15_000);
});

describe("a transaction that cannot begin", () => {
  it("while another process holds the lock, is busy (503, nothing of it ran), and says so to the request it ran for", async () => {
    const database = getDatabase();
    const lock = await holdWriteLock(file);
    // A page cannot choose its status: the front door answers 503 for one whose scope says the
    // database could not answer (lib/db/request-scope.ts). The lock may stop the transaction's
    // first statement rather than its BEGIN; that must be noted too.
    const scope: RequestScope = { databaseUnavailable: false };
    let failure: unknown;
    try {
      await withinRequestScope(scope, () =>
        database.$transaction(async (tx) => {
          await tx.$executeRaw`INSERT INTO rate_limit_windows (key, attempts, expires_at) VALUES ('late', 1, 1)`;
        }),
      );
    } catch (error) {
      failure = error;
    } finally {
      await lock.release();
    }
    expect(failure).toBeDefined();
    expect(temporaryKind(failure)).toBe("database_busy");
    expect(scope.databaseUnavailable).toBe(true);
    expect(await database.rateLimitWindow.count()).toBe(0);
  }, 15_000);

  it("because Prisma gave up waiting to start it (P2028, as the chaos run met it under a held lock), is busy; other P2028s are not", () => {
    const failure = (message: string) =>
      new Prisma.PrismaClientKnownRequestError(`\nInvalid \`prisma.$executeRaw()\` invocation:\n\n\n${message}`, {
        code: "P2028",
        clientVersion: Prisma.prismaVersion.client,
      });
    expect(temporaryKind(failure("Transaction API error: Unable to start a transaction in the given time."))).toBe("database_busy");
    // An expired transaction may have run part of its work before it was rolled back: not called temporary here.
    expect(temporaryKind(failure("Transaction API error: A commit cannot be executed on an expired transaction."))).toBeNull();
  });
});
