import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { setUpTestDatabase } from "./support/database";

setUpTestDatabase();

describe("the site's database connection", () => {
  it("uses WAL journal mode (set by the migrate step) and synchronous=FULL", () => {
    const db = getDb();
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("synchronous", { simple: true })).toBe(2); // FULL
  });

  it("waits up to 5 s for a busy writer instead of failing at once", () => {
    expect(getDb().pragma("busy_timeout", { simple: true })).toBe(5_000);
  });
});
