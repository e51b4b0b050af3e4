import { copyFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeEach, inject } from "vitest";
import { getDb } from "@/lib/db";

/**
 * Gives the calling test file its own copy of the migrated template database,
 * points DATABASE_URL (and so the real route handler) at it, and empties the
 * table before each test.
 */
export function setUpTestDatabase(): { file: string } {
  const template = inject("templateDatabase");
  const file = path.join(path.dirname(template), `${crypto.randomUUID()}.db`);
  copyFileSync(template, file);
  process.env.DATABASE_URL = `file:${file}`;

  beforeEach(async () => {
    await getDb().waitlistEntry.deleteMany();
  });
  afterAll(async () => {
    await getDb().$disconnect();
  });
  return { file };
}

export function countEntries(): Promise<number> {
  return getDb().waitlistEntry.count();
}
