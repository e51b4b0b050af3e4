import Database from "better-sqlite3";
import { databaseFileFromUrl, parseEnv } from "./env";
import { BUSY_TIMEOUT_MS, configureConnection } from "./sqlite";

export type Db = Database.Database;

/**
 * Opens the waitlist database. Prisma owns the schema and its migrations; the
 * site and the operator tool talk to SQLite through better-sqlite3 directly,
 * because a sign-up is one prepared INSERT and the ORM's per-query work cost
 * about 40% of sign-up throughput (docs/performance.md), and because exports
 * need a row-by-row cursor that Prisma does not offer.
 */
export function openDatabase(databaseFile: string, options: { readonly?: boolean } = {}): Db {
  const db = new Database(databaseFile, {
    // A missing file means migrations were not run; fail loudly rather than
    // creating an empty database with no tables.
    fileMustExist: true,
    readonly: options.readonly ?? false,
    // Concurrent writers queue for the lock instead of failing with SQLITE_BUSY.
    timeout: BUSY_TIMEOUT_MS,
  });
  configureConnection(db);
  return db;
}

// One connection per process. It lives on globalThis so that Next's dev-mode
// reloads reuse it instead of opening a new one on every edit.
const cache = globalThis as unknown as { waitlistDb?: Db };

/** The process's connection to DATABASE_URL, opened on first use (never at build time). */
export function getDb(): Db {
  cache.waitlistDb ??= openDatabase(databaseFileFromUrl(parseEnv().DATABASE_URL));
  return cache.waitlistDb;
}

/** Closes the process's connection, for tests and graceful shutdown. */
export function closeDb(): void {
  cache.waitlistDb?.close();
  cache.waitlistDb = undefined;
}
