import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { setUpTestDatabase } from "./support/database";

setUpTestDatabase();

describe("the site's database connection", () => {
  it("uses WAL journal mode (set by the migrate step) and synchronous=FULL", async () => {
    const db = getDb();
    const [journal] = await db.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
    const [synchronous] = await db.$queryRawUnsafe<{ synchronous: bigint | number }[]>("PRAGMA synchronous");
    expect(journal?.journal_mode).toBe("wal");
    expect(Number(synchronous?.synchronous)).toBe(2); // FULL
  });

  it("waits up to 5 s for a busy writer instead of failing at once", async () => {
    const [timeout] = await getDb().$queryRawUnsafe<{ timeout: bigint | number }[]>("PRAGMA busy_timeout");
    expect(Number(timeout?.timeout)).toBe(5_000);
  });
});
