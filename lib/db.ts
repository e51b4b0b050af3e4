/**
 * The data layer: one Prisma Client, generated from prisma/schema.prisma into
 * lib/generated/prisma (`npm run db:generate`), on a driver adapter. Every read
 * and write of the site, the operator tool and the scripts goes through it.
 *
 * This is also the one module that knows about drivers: better-sqlite3 for the
 * embedded file (the default), libSQL for a Turso or libSQL server, or for a
 * file when DATABASE_DRIVER=libsql (the tests run both). docs/architecture.md
 * and docs/deployment.md explain the choices.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";
import { databaseSettings, type DatabaseSettings } from "./env";
import { PrismaClient } from "./generated/prisma/client";

export { Prisma } from "./generated/prisma/client";
export type Database = PrismaClient;

/** How long a write waits for another process's lock before giving up (SQLite busy timeout). */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Run on every connection before its first query. In WAL mode SQLite defaults
 * (as better-sqlite3 builds it) to synchronous=NORMAL, which survives a killed
 * process but can lose the last commits on power loss. FULL syncs each commit
 * before the 201 goes out; group commit (lib/group-commit.ts) pays that sync
 * once per batch, so an acknowledged sign-up is never lost and costs little.
 */
const CONNECTION_SETUP = "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;";

/**
 * Put first in a statement whose commit need not survive power loss (a
 * rate-limit count): on better-sqlite3 it commits with synchronous=NORMAL,
 * without its own sync to disk. The next sign-up's commit syncs the log, and
 * with it this one's change. Saves a sync (about 0.5 ms here) per batch.
 */
export const WITHOUT_SYNC = "/* without sync */";

type DriverAdapter = Awaited<ReturnType<SqlDriverAdapterFactory["connect"]>>;
type DriverTransaction = Awaited<ReturnType<DriverAdapter["startTransaction"]>>;

/** A first-come, first-served lock for async work. */
class Lock {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves with `release` once every earlier holder has released. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.tail.then(() => release);
    this.tail = this.tail.then(() => released);
    return acquired;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}

/**
 * The better-sqlite3 adapter runs every query on its one connection and locks
 * transactions only against each other. A query from elsewhere in the process
 * that arrives while an interactive transaction awaits would run inside that
 * transaction, and be undone with it. This queues every query behind an open
 * transaction (as the libSQL adapter does on its own), runs CONNECTION_SETUP on
 * the connection first, and commits WITHOUT_SYNC statements without a sync.
 */
function oneQueryAtATime(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect(): Promise<DriverAdapter> {
      const adapter = await factory.connect();
      await adapter.executeScript(CONNECTION_SETUP);
      const lock = new Lock();
      const withoutSync = async <T>(run: () => Promise<T>): Promise<T> => {
        await adapter.executeScript("PRAGMA synchronous = NORMAL");
        try {
          return await run();
        } finally {
          await adapter.executeScript("PRAGMA synchronous = FULL");
        }
      };
      return {
        provider: adapter.provider,
        adapterName: adapter.adapterName,
        queryRaw: (query) =>
          lock.run(() => (query.sql.startsWith(WITHOUT_SYNC) ? withoutSync(() => adapter.queryRaw(query)) : adapter.queryRaw(query))),
        executeRaw: (query) => lock.run(() => adapter.executeRaw(query)),
        executeScript: (script) => lock.run(() => adapter.executeScript(script)),
        getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
        dispose: () => adapter.dispose(),
        async startTransaction(isolationLevel): Promise<DriverTransaction> {
          const release = await lock.acquire();
          let transaction: DriverTransaction;
          try {
            transaction = await adapter.startTransaction(isolationLevel);
          } catch (error) {
            release();
            throw error;
          }
          const finish = (end: () => Promise<void>) => async () => {
            try {
              await end();
            } finally {
              release();
            }
          };
          return {
            provider: transaction.provider,
            adapterName: transaction.adapterName,
            options: transaction.options,
            queryRaw: (query) => transaction.queryRaw(query),
            executeRaw: (query) => transaction.executeRaw(query),
            commit: finish(() => transaction.commit()),
            rollback: finish(() => transaction.rollback()),
          };
        },
      };
    },
  };
}

/** A problem an operator can fix (no database yet, wrong address); its message says how. */
export class DatabaseUnavailable extends Error {}

/** The driver adapter for a database (prisma.config.ts makes the same choice for Prisma's CLI). */
function driverAdapter(settings: DatabaseSettings): SqlDriverAdapterFactory {
  if (settings.driver === "libsql") return new PrismaLibSQL({ url: settings.url, authToken: settings.authToken });
  return new PrismaBetterSQLite3({ url: settings.file, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
}

/**
 * A new client on a database (by default the one the environment names). A
 * missing file is an error, not a silently created empty database: it means
 * migrations were not run.
 */
export function createDatabase(settings: DatabaseSettings = databaseSettings()): Database {
  if (settings.file !== undefined && !existsSync(settings.file)) {
    const shown = path.relative(process.cwd(), settings.file) || settings.file;
    throw new DatabaseUnavailable(
      `There is no waitlist database at ${shown} yet. Run npm run db:migrate (npm start does it first).`,
    );
  }
  const adapter = driverAdapter(settings);
  return new PrismaClient({ adapter: settings.driver === "better-sqlite3" ? oneQueryAtATime(adapter) : adapter });
}

// One client per process. It lives on globalThis because each route of the
// built site is its own bundle with its own copy of this module, and because
// Next's dev-mode reloads would otherwise open a new one on every edit.
const cache = globalThis as unknown as { waitlistDatabase?: Database };

/** The process's client for DATABASE_URL, made on first use (never at build time). */
export function getDatabase(): Database {
  cache.waitlistDatabase ??= createDatabase();
  return cache.waitlistDatabase;
}

/** Closes the process's client, for tests and graceful shutdown. */
export async function closeDatabase(): Promise<void> {
  const database = cache.waitlistDatabase;
  cache.waitlistDatabase = undefined;
  await database?.$disconnect();
}

/**
 * WAL lets page reads run beside a write and roughly doubles sign-up throughput.
 * The mode is stored in the file, so setting it once after migrating is enough.
 */
export async function enableWal(database: Database): Promise<void> {
  await database.$queryRawUnsafe("PRAGMA journal_mode = WAL");
}
