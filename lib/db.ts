import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseFileFromUrl, parseEnv } from "./env";
import { PrismaClient } from "./generated/prisma/client";
import { BUSY_TIMEOUT_MS, CONNECTION_PRAGMAS } from "./sqlite";

/**
 * The better-sqlite3 adapter, plus the per-connection settings it has no option
 * for (see lib/sqlite.ts for why synchronous=FULL).
 */
class WaitlistSqliteAdapter extends PrismaBetterSQLite3 {
  override async connect(): ReturnType<PrismaBetterSQLite3["connect"]> {
    const connection = await super.connect();
    await connection.executeScript(CONNECTION_PRAGMAS);
    return connection;
  }
}

export function createPrismaClient(databaseFile: string): PrismaClient {
  const adapter = new WaitlistSqliteAdapter({
    url: databaseFile,
    // Concurrent sign-ups queue for the write lock instead of failing with SQLITE_BUSY.
    timeout: BUSY_TIMEOUT_MS,
    // A missing file means migrations were not run; fail loudly rather than
    // creating an empty database with no tables.
    fileMustExist: true,
  });
  return new PrismaClient({ adapter });
}

// One client per process. It lives on globalThis so that Next's dev-mode reloads
// reuse it instead of opening a new connection on every edit.
const cache = globalThis as unknown as { waitlistDb?: PrismaClient };

/** The process's Prisma client, created on first use (never at build time). */
export function getDb(): PrismaClient {
  cache.waitlistDb ??= createPrismaClient(databaseFileFromUrl(parseEnv().DATABASE_URL));
  return cache.waitlistDb;
}
