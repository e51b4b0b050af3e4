/**
 * The data layer: one Prisma Client, generated from prisma/schema.prisma into
 * lib/generated/prisma (`npm run db:generate`), on a driver adapter. Every read
 * and write of the site, the operator tool and the scripts goes through it.
 *
 * This folder is also the one place that knows about drivers (worker-connection.ts
 * and its thread, worker.mjs): better-sqlite3 for the embedded file (the default), or
 * libSQL's engine when DATABASE_DRIVER=libsql, either way in a worker thread (the tests
 * run both); libSQL's client for a Turso or libSQL server. docs/architecture.md and
 * docs/deployment.md explain the choices.
 */
import "server-only";
import { existsSync } from "node:fs";
import path from "node:path";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";
import { databaseSettings, parseEnv, type DatabaseSettings } from "../env";
import { PrismaClient } from "../generated/prisma/client";
import { forgetSingleton, singleton } from "../singleton";
import { within } from "../time";
import { sqliteFileInWorker, type WorkerConnectionOptions } from "./worker-connection";
import { temporaryKind } from "./errors";
import { forgetIfRecovered } from "./request-scope";

export { Prisma } from "../generated/prisma/client";
export { DatabaseUnavailable, isTemporary, temporaryKind } from "./errors";
export type Database = PrismaClient;

/**
 * How long a write waits for another process's lock (SQLite's busy timeout)
 * before it fails as busy, and the visitor gets 503 with nothing stored. Locks
 * between our own instances last milliseconds; a lock held longer is an
 * operator's transaction or a maintenance job, and a visitor should not wait it out.
 */
export const BUSY_TIMEOUT_MS = 3_000;

/**
 * The most any one query may take. Far above the busy timeout, so only a hung
 * disk or thread reaches it; the connection is then replaced (worker-connection.ts).
 */
const QUERY_TIMEOUT_MS = 15_000;

/** After the file failed to open, how long queries fail at once before it is tried again. */
const REOPEN_AFTER_MS = 1_000;

/**
 * A query that keeps the site's database thread this long, or a transaction open this long, is
 * logged (slow_query): every sign-up waits behind it. A batch of sign-ups takes 1-5 ms;
 * WAITLIST_SLOW_QUERY_MS sets another threshold for the site (docs/operations.md).
 */
export const SLOW_QUERY_MS = 100;

/**
 * Run on every connection before its first query. In WAL mode SQLite defaults
 * (as better-sqlite3 builds it) to synchronous=NORMAL, which survives a killed
 * process but can lose the last commits on power loss. FULL syncs each commit
 * before the 201 goes out; group commit (lib/group-commit.ts) pays that sync
 * once per batch, so an acknowledged sign-up is never lost and costs little.
 *
 * cache_size: 64 MiB of pages kept by the connection (SQLite's default is 2 MiB). A new sign-up
 * touches the unique indexes (mailbox, public id, question) and the search index at random
 * places; on a list of a million rows (about 800 MB) a 2 MiB cache reads most of those pages back
 * from the OS on every insert.
 */
const SYNCED = "PRAGMA synchronous = FULL";

/**
 * The site's own client checkpoints the write-ahead log from a thread of its own this often
 * (lib/db/checkpointer.mjs), so no sign-up's commit pays for a checkpoint; its connection still
 * checkpoints by itself past SAFETY_NET_CHECKPOINT_PAGES should that thread stop.
 *
 * SQLite compares that limit with the log's length since it last started over, not with what is
 * left to copy, and the log starts over only when a write begins with every page copied: during a
 * long run of writes it only grows, however often the thread copies it. A launch's burst writes
 * tens of thousands of pages before its first pause, so a lower limit would make a commit run the
 * checkpoint itself, holding the connection while it syncs. 100,000 pages is about 400 MB of log,
 * reached only if the thread has stopped (it logs that) or writes never pause for minutes.
 */
const CHECKPOINT_EVERY_MS = 250;
export const SAFETY_NET_CHECKPOINT_PAGES = 100_000;
const CONNECTION_SETUP = `${SYNCED}; PRAGMA foreign_keys = ON; PRAGMA cache_size = -${64 * 1024};`;

/**
 * Put first in a statement whose commit need not survive power loss (a rate-limit count, a pass
 * of the search index): on the embedded file (either driver's thread, worker.mjs) it commits with
 * synchronous=NORMAL, without its own sync to disk. The next sign-up's commit syncs the log, and
 * with it this one's change. Saves a sync per batch.
 */
export const WITHOUT_SYNC = "/* without sync */";

/**
 * Put first in a background statement that should not wait for another process's write lock (the
 * search index's pass): on the embedded file it runs with no busy timeout, so it fails busy at once
 * instead of holding the site's one connection, and every sign-up behind it, for BUSY_TIMEOUT_MS.
 * Its job tries again at its next turn. (libSQL's engine never waits anyway.) Combines with
 * WITHOUT_SYNC, either first.
 */
export const WITHOUT_WAITING = "/* without waiting */";

/** A problem an operator can fix before the site can start (no database yet); its message says how. */
export class DatabaseMissing extends Error {}

/** The driver adapter for a database (prisma.config.ts makes the same choice for Prisma's CLI). */
function driverAdapter(settings: DatabaseSettings, connection: ConnectionOptions): SqlDriverAdapterFactory {
  // A libSQL server's engine is on the server: nothing of it runs on this event loop.
  if (settings.driver === "libsql" && settings.file === undefined)
    return new PrismaLibSQL({ url: settings.url, authToken: settings.authToken });
  return sqliteFileInWorker({
    driver: settings.driver,
    file: settings.file!,
    busyTimeoutMs: BUSY_TIMEOUT_MS,
    setup: CONNECTION_SETUP,
    markers: [
      { marker: WITHOUT_SYNC, set: "PRAGMA synchronous = NORMAL", reset: SYNCED },
      // libSQL's engine has no busy timeout to lift (and setting one would give it one).
      ...(settings.driver === "libsql"
        ? []
        : [{ marker: WITHOUT_WAITING, set: "PRAGMA busy_timeout = 0", reset: `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}` }]),
    ],
    queryTimeoutMs: QUERY_TIMEOUT_MS,
    reopenAfterMs: REOPEN_AFTER_MS,
    // Only the site's own client (getDatabase) logs slow queries: the operator tool and the scripts
    // read far more at once, and their output is for the operator.
    slowQueryMs: Number.POSITIVE_INFINITY,
    ...connection,
  });
}

/** Other deadlines for the embedded file's thread, or another script for it (the fault tests' probe). */
type ConnectionOptions = Partial<
  Pick<WorkerConnectionOptions, "queryTimeoutMs" | "reopenAfterMs" | "script" | "slowQueryMs" | "checkpointEveryMs" | "setup">
>;

/**
 * A new client on a database (by default the one the environment names). A
 * missing file is an error, not a silently created empty database: it means
 * migrations were not run. `client.transactionMaxWaitMs`: how long a transaction
 * may wait to start (Prisma's maxWait, 2 s by default), for a process whose first
 * statement is a transaction (the operator tool).
 */
export function createDatabase(
  settings: DatabaseSettings = databaseSettings(),
  connection: ConnectionOptions = {},
  client: { transactionMaxWaitMs?: number } = {},
): Database {
  if (settings.file !== undefined && !existsSync(settings.file)) {
    const shown = path.relative(process.cwd(), settings.file) || settings.file;
    throw new DatabaseMissing(`There is no waitlist database at ${shown} yet. Run npm run db:migrate (npm start does it first).`);
  }
  const database = new PrismaClient({
    adapter: driverAdapter(settings, connection),
    ...(client.transactionMaxWaitMs ? { transactionOptions: { maxWait: client.transactionMaxWaitMs } } : {}),
  });
  // better-sqlite3 waits out another connection's lock in SQLite's busy handler; libSQL's engine,
  // embedded or on a server, has none.
  sqliteWaitsWhenBusy.set(database, settings.driver !== "libsql");
  return database;
}

/** The process's one client for DATABASE_URL (lib/singleton.ts), made on first use (never at build time). */
export function getDatabase(): Database {
  return singleton("database", () => {
    const env = parseEnv();
    return createDatabase(databaseSettings(env), {
      slowQueryMs: env.WAITLIST_SLOW_QUERY_MS ?? SLOW_QUERY_MS,
      checkpointEveryMs: CHECKPOINT_EVERY_MS,
      setup: `${CONNECTION_SETUP} PRAGMA wal_autocheckpoint = ${SAFETY_NET_CHECKPOINT_PAGES};`,
    });
  });
}

/**
 * Opens the process's client and waits, at most `deadlineMs`, for its first answer: the first query
 * starts the connection's thread and compiles the query engine (0.2-1 s; several seconds on a busy
 * machine), which would otherwise fall on the first request. Throws only DatabaseMissing: a
 * database that fails or is late is the health check's to report (the connection logs a failure).
 */
export async function openDatabase(deadlineMs: number): Promise<void> {
  await within(
    getDatabase().$queryRaw`SELECT 1`.catch(() => {}),
    deadlineMs,
  );
}

/** Closes the process's client, for tests and graceful shutdown. */
export async function closeDatabase(): Promise<void> {
  await forgetSingleton<Database>("database")?.$disconnect();
}

/**
 * WAL lets page reads run beside a write and roughly doubles sign-up throughput.
 * The mode is stored in the file, so setting it once after migrating is enough.
 */
export async function enableWal(database: Database): Promise<void> {
  await database.$queryRawUnsafe("PRAGMA journal_mode = WAL");
}

/** Per client: whether SQLite itself waits out another connection's lock before answering busy (better-sqlite3's busy timeout). */
const sqliteWaitsWhenBusy = new WeakMap<Database, boolean>();

/**
 * Runs a write (a statement or a whole transaction) on a client again while another connection holds the
 * write lock, until BUSY_TIMEOUT_MS after the first try: SQLite's busy timeout for what it does not
 * cover (libSQL's embedded engine has none; an interactive transaction's first write). Only
 * "busy" is tried again, and a busy better-sqlite3 already waited out is thrown, never waited twice.
 */
export async function whileBusy<T>(database: Database, write: (database: Database) => Promise<T>, waitMs = BUSY_TIMEOUT_MS): Promise<T> {
  return forgetIfRecovered(() => tryWhileBusy(database, write, waitMs));
}

async function tryWhileBusy<T>(database: Database, write: (database: Database) => Promise<T>, waitMs: number): Promise<T> {
  const giveUpAt = Date.now() + waitMs;
  for (let attempt = 1; ; attempt += 1) {
    const attemptStarted = Date.now();
    try {
      return await write(database);
    } catch (error) {
      // An attempt that itself took half the window already waited in SQLite's busy handler; libSQL's
      // engine has none, so there a slow attempt was slow for other reasons (a busy CPU, a queue).
      const waitedInSqlite = (sqliteWaitsWhenBusy.get(database) ?? false) && Date.now() - attemptStarted >= waitMs / 2;
      if (temporaryKind(error) !== "database_busy" || waitedInSqlite || Date.now() >= giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(200, 10 * attempt) + Math.random() * 20));
    }
  }
}
