import { copyFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeEach, inject } from "vitest";
import { closeDb, getDb } from "@/lib/db";

export type StoredEntry = {
  id: number;
  company_name: string;
  contact_name: string;
  email: string;
  email_normalized: string;
  phone: string;
  business_type: string;
  company_size: string;
  notes: string | null;
  created_at: string;
  challenge_id: string | null;
};

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

  beforeEach(() => {
    getDb().exec("DELETE FROM waitlist_entries");
  });
  afterAll(() => closeDb());
  return { file };
}

export function countEntries(): number {
  return (getDb().prepare("SELECT count(*) AS count FROM waitlist_entries").get() as { count: number }).count;
}

export function storedEntries(): StoredEntry[] {
  return getDb().prepare("SELECT * FROM waitlist_entries ORDER BY id").all() as StoredEntry[];
}
