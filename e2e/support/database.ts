import Database from "better-sqlite3";
import { databaseFileFromUrl } from "../../lib/env";
import { normalizeEmail } from "../../lib/waitlist/schema";
import { E2E_DATABASE_URL } from "./config";

/** Runs a statement against the test server's own database file. */
export function withTestDatabase<T>(work: (sqlite: Database.Database) => T): T {
  const sqlite = new Database(databaseFileFromUrl(E2E_DATABASE_URL), { fileMustExist: true, timeout: 5_000 });
  try {
    return work(sqlite);
  } finally {
    sqlite.close();
  }
}

export function storedEntry(email: string): Record<string, unknown> | undefined {
  return withTestDatabase(
    (sqlite) =>
      sqlite.prepare("SELECT * FROM waitlist_entries WHERE email_normalized = ?").get(normalizeEmail(email)) as
        Record<string, unknown> | undefined,
  );
}
