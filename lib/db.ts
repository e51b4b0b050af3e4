/**
 * The data layer: one Prisma Client, generated from prisma/schema.prisma into
 * lib/generated/prisma (`npm run db:generate`), on a driver adapter. Every read
 * and write of the site, the operator tool and the scripts goes through it.
 *
 * This is also the one module that knows about drivers (with its worker,
 * lib/db-worker.mjs): better-sqlite3 for the embedded file (the default), in a
 * worker thread; libSQL for a Turso or libSQL server, or for a file when
 * DATABASE_DRIVER=libsql (the tests run both). docs/architecture.md and
 * docs/deployment.md explain the choices.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
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

type Failure = { name?: string; message?: string; cause?: unknown; code?: string };
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: Failure };

/** The worker's error as the main thread's: Prisma recognises a driver error by its name and cause. */
function errorFrom(failure: Failure): Error {
  return Object.assign(new Error(failure.message), { name: failure.name ?? "Error", cause: failure.cause, code: failure.code });
}

/**
 * The better-sqlite3 adapter, run in a worker thread (lib/db-worker.mjs) with
 * its one connection. better-sqlite3 is synchronous: a statement, and the sync
 * to disk at its commit, would otherwise hold the event loop and every request
 * waiting on it (measured in docs/performance.md). The worker runs Prisma's own
 * adapter, so values and errors are mapped exactly as in-process; this side
 * only carries queries over and answers back.
 *
 * The adapter locks transactions only against each other, so a query from
 * elsewhere in the process that arrived while an interactive transaction was
 * awaiting would run inside it, and be undone with it. This side therefore
 * sends one query at a time and holds every other query back while a
 * transaction is open (as the libSQL adapter does on its own).
 */
function betterSqlite3InWorker(file: string): SqlDriverAdapterFactory {
  return {
    provider: "sqlite",
    adapterName: "@prisma/adapter-better-sqlite3",
    async connect(): Promise<DriverAdapter> {
      // A file beside this one in the project, not bundled: each route of the build is a
      // bundle of its own, and a worker needs a file to start from.
      const worker = new Worker(/*turbopackIgnore: true*/ path.join(process.cwd(), "lib", "db-worker.mjs"), {
        workerData: {
          config: { url: file, fileMustExist: true, timeout: BUSY_TIMEOUT_MS },
          setup: CONNECTION_SETUP,
          withoutSync: WITHOUT_SYNC,
        },
      });
      const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
      let lastId = 0;
      const ready = new Promise<void>((resolve, reject) => {
        worker.once("message", (message: { ready: boolean; error?: Failure }) => (message.ready ? resolve() : reject(errorFrom(message.error ?? {}))));
        worker.once("error", reject);
      });
      worker.on("message", (reply: Reply | { ready: boolean }) => {
        if (!("id" in reply)) return;
        const pending = waiting.get(reply.id);
        waiting.delete(reply.id);
        // An idle worker must not keep a finished command (the operator tool, a test) running.
        if (waiting.size === 0) worker.unref();
        if (reply.ok) pending?.resolve(reply.value);
        else pending?.reject(errorFrom(reply.error));
      });
      worker.on("error", (error) => {
        for (const pending of waiting.values()) pending.reject(error);
        waiting.clear();
      });
      await ready;
      worker.unref();

      const send = <T>(op: string, arg?: unknown, tx?: number): Promise<T> =>
        new Promise<T>((resolve, reject) => {
          lastId += 1;
          waiting.set(lastId, { resolve: resolve as (value: unknown) => void, reject });
          worker.ref();
          worker.postMessage({ id: lastId, op, arg, tx });
        });

      const lock = new Lock();
      return {
        provider: "sqlite",
        adapterName: "@prisma/adapter-better-sqlite3",
        queryRaw: (query) => lock.run(() => send("queryRaw", query)),
        executeRaw: (query) => lock.run(() => send("executeRaw", query)),
        executeScript: (script) => lock.run(() => send("executeScript", script)),
        dispose: async () => {
          await send("dispose");
          await worker.terminate();
        },
        async startTransaction(isolationLevel): Promise<DriverTransaction> {
          const release = await lock.acquire();
          let started: { tx: number; options: DriverTransaction["options"] };
          try {
            started = await send("startTransaction", isolationLevel);
          } catch (error) {
            release();
            throw error;
          }
          const finish = (end: "commit" | "rollback") => async () => {
            try {
              await send(end, undefined, started.tx);
            } finally {
              release();
            }
          };
          return {
            provider: "sqlite",
            adapterName: "@prisma/adapter-better-sqlite3",
            options: started.options,
            queryRaw: (query) => send("queryRaw", query, started.tx),
            executeRaw: (query) => send("executeRaw", query, started.tx),
            commit: finish("commit"),
            rollback: finish("rollback"),
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
  return betterSqlite3InWorker(settings.file);
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
  return new PrismaClient({ adapter: driverAdapter(settings) });
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
