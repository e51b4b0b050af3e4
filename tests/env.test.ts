import { describe, expect, it } from "vitest";
import { BUSY_TIMEOUT_MS, getDatabase, Prisma, SAFETY_NET_CHECKPOINT_PAGES, WITHOUT_SYNC } from "@/lib/db";
import { databaseSettings } from "@/lib/env";
import { setUpTestDatabase } from "./support/database";

setUpTestDatabase();

/** A pragma's value as the site's own client sees it. */
async function pragma(name: string): Promise<unknown> {
  const [row] = await getDatabase().$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${name}`);
  const value = Object.values(row!)[0];
  return typeof value === "bigint" ? Number(value) : value;
}

describe(`the site's database client (${process.env.DATABASE_DRIVER})`, () => {
  it("opens the file with the driver the environment names", () => {
    expect(databaseSettings().driver).toBe(process.env.DATABASE_DRIVER);
  });

  it("uses WAL journal mode (set by the migrate step), synchronous=FULL and foreign keys", async () => {
    expect(await pragma("journal_mode")).toBe("wal");
    expect(await pragma("synchronous")).toBe(2); // FULL
    expect(await pragma("foreign_keys")).toBe(1); // removing an entry removes its deliveries
  });

  it("leaves checkpoints to its own thread: a commit checkpoints only past 100,000 pages of log (better-sqlite3; libSQL's client keeps SQLite's 1,000 on each new connection)", async () => {
    // At 10,000 pages a commit after each launch burst ran the checkpoint itself (20-35 ms held).
    expect(SAFETY_NET_CHECKPOINT_PAGES).toBe(100_000);
    expect(await pragma("wal_autocheckpoint")).toBe(process.env.DATABASE_DRIVER === "libsql" ? 1_000 : SAFETY_NET_CHECKPOINT_PAGES);
  });

  it("runs a statement marked WITHOUT_SYNC with synchronous=NORMAL, then goes back to FULL", async () => {
    const [during] = await getDatabase().$queryRaw<Record<string, bigint | number>[]>`${Prisma.raw(WITHOUT_SYNC)} PRAGMA synchronous`;
    expect(Number(Object.values(during!)[0])).toBe(1);
    expect(await pragma("synchronous")).toBe(2);
  });

  it("never lets another statement run unsynced while a WITHOUT_SYNC one is under way", async () => {
    const database = getDatabase();
    const marked = () => database.$queryRaw<Record<string, bigint | number>[]>`${Prisma.raw(WITHOUT_SYNC)} PRAGMA synchronous`;
    const plain = () => database.$queryRaw<Record<string, bigint | number>[]>`PRAGMA synchronous`;
    const valueOf = (rows: Record<string, bigint | number>[]) => Number(Object.values(rows[0]!)[0]);
    // Interleaved as a busy server interleaves rate-limit counts and sign-up inserts.
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? plain() : marked()).then((rows) => ({ marked: i % 2 === 0, value: valueOf(rows) }))),
    );
    expect(results.filter((result) => !result.marked).map((result) => result.value)).toEqual(Array(20).fill(2));
    expect(results.filter((result) => result.marked).map((result) => result.value)).toEqual(Array(20).fill(1));
    // And inside a transaction begun meanwhile.
    const [, inTransaction] = await Promise.all([
      marked(),
      database.$transaction(async (tx) => valueOf(await tx.$queryRaw`PRAGMA synchronous`)),
    ]);
    expect(inTransaction).toBe(2);
  });

  it("waits up to BUSY_TIMEOUT_MS (3 s) for a busy writer, then fails as busy (better-sqlite3; libSQL's embedded client has no setting for it)", async () => {
    expect(await pragma("busy_timeout")).toBe(process.env.DATABASE_DRIVER === "libsql" ? 0 : BUSY_TIMEOUT_MS);
    expect(BUSY_TIMEOUT_MS).toBe(3_000);
  });
});
