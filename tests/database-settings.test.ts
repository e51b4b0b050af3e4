import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { setUpTestDatabase } from "./support/database";

setUpTestDatabase();

/** A pragma's value as the site's own client sees it. */
async function pragma(name: string): Promise<unknown> {
  const [row] = await getDatabase().$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${name}`);
  return Object.values(row!)[0];
}

describe("the site's database client", () => {
  it("uses WAL journal mode (set by the migrate step) and synchronous=FULL", async () => {
    expect(await pragma("journal_mode")).toBe("wal");
    expect(Number(await pragma("synchronous"))).toBe(2); // FULL
  });

  it("waits up to 5 s for a busy writer instead of failing at once", async () => {
    expect(Number(await pragma("busy_timeout"))).toBe(5_000);
  });
});
