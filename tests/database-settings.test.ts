import { describe, expect, it } from "vitest";
import { BUSY_TIMEOUT_MS, getDatabase, Prisma, WITHOUT_SYNC } from "@/lib/db";
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

  it("runs a statement marked WITHOUT_SYNC with synchronous=NORMAL (better-sqlite3), then goes back to FULL", async () => {
    const [during] = await getDatabase().$queryRaw<Record<string, bigint | number>[]>`${Prisma.raw(WITHOUT_SYNC)} PRAGMA synchronous`;
    // libSQL's client opens connections of its own, so there the mark changes nothing.
    expect(Number(Object.values(during!)[0])).toBe(process.env.DATABASE_DRIVER === "libsql" ? 2 : 1);
    expect(await pragma("synchronous")).toBe(2);
  });

  it("waits up to BUSY_TIMEOUT_MS (3 s) for a busy writer, then fails as busy (better-sqlite3; libSQL's embedded client has no setting for it)", async () => {
    expect(await pragma("busy_timeout")).toBe(process.env.DATABASE_DRIVER === "libsql" ? 0 : BUSY_TIMEOUT_MS);
    expect(BUSY_TIMEOUT_MS).toBe(3_000);
  });
});
