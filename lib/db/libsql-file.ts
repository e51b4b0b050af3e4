/**
 * Prisma's libSQL adapter on a local file (DATABASE_DRIVER=libsql), kept from wedging after
 * another process held the lock for a moment.
 *
 * libSQL's engine does not wait for a lock: a write that meets one fails at once with
 * SQLITE_BUSY. The binding leaves that failed statement in progress on the connection
 * (tursodatabase/libsql-client-ts#352), @libsql/client hands that same connection to the next
 * transaction, whose COMMIT then fails ("SQL statements in progress"), and Prisma's engine never
 * rolls back a transaction whose commit failed (prisma/orm#30028). Its BEGIN stays open on a
 * connection nothing closes, holding the write lock until the process ends: every write of every
 * instance fails from then on. Measured here: one collision, then no process could write again.
 *
 * Two repairs, until the libraries carry the fix:
 * - a commit that fails is rolled back on its own connection before the error goes on, so the
 *   lock is let go whatever the engine does next;
 * - a query outside a transaction that failed busy is followed by an empty transaction, which
 *   takes the connection holding the failed statement out of the client's hands (the client
 *   opens a fresh one for what comes next) and rolls it back.
 * A libsql:// or https:// server keeps its locks on the server, and is not wrapped.
 *
 * It also honours WITHOUT_SYNC (lib/db/index.ts), as the better-sqlite3 thread does: a
 * statement so marked commits with synchronous=NORMAL. On libSQL that matters more, because the
 * engine runs on the event loop: a synced commit held it for 200-400 µs here (docs/performance.md).
 * The pragma is per connection, so the wrapper runs one call at a time (the adapter does so too:
 * its own lock covers every statement, and a transaction holds it to the end), and nothing else
 * can run between the statement and the return to FULL.
 */
import "server-only";
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";
import { DatabaseUnavailable, temporaryKind } from "./errors";
import { Lock } from "./lock";

type DriverAdapter = Awaited<ReturnType<SqlDriverAdapterFactory["connect"]>>;
type DriverTransaction = Awaited<ReturnType<DriverAdapter["startTransaction"]>>;

const isBusy = (error: unknown) => temporaryKind(error) === "database_busy";

/** `release` is called once the transaction has ended, either way. */
function withRollbackOnFailedCommit(transaction: DriverTransaction, release: () => void): DriverTransaction {
  return {
    provider: transaction.provider,
    adapterName: transaction.adapterName,
    options: transaction.options,
    queryRaw: (query) => transaction.queryRaw(query),
    executeRaw: (query) => transaction.executeRaw(query),
    async commit() {
      try {
        await transaction.commit();
      } catch (error) {
        // The adapter's rollback swallows its own failure; the error that matters is the commit's.
        await transaction.rollback();
        throw error;
      } finally {
        release();
      }
    },
    async rollback() {
      try {
        await transaction.rollback();
      } finally {
        release();
      }
    },
  };
}

/** Every commit synced, as lib/db/index.ts sets for better-sqlite3; libSQL's own default too. */
const SYNCED = "PRAGMA synchronous = FULL";
const UNSYNCED = "PRAGMA synchronous = NORMAL";

function repaired(adapter: DriverAdapter, withoutSync: string, turnTimeoutMs: number): DriverAdapter {
  /** Takes the connection that holds a failed statement out of use (see above); never throws. */
  const shedConnection = async () => {
    try {
      await (await adapter.startTransaction()).rollback();
    } catch {
      // The next query opens what it needs; this was only a clean-up.
    }
  };
  const lock = new Lock();
  const turn = () => lock.acquire(turnTimeoutMs, () => new DatabaseUnavailable(`no turn on the database within ${turnTimeoutMs} ms`, "database_query_deadline"));
  const outsideTransaction =
    <Args extends unknown[], Result>(run: (...args: Args) => Promise<Result>) =>
    async (...args: Args): Promise<Result> => {
      const release = await turn();
      try {
        return await run(...args);
      } catch (error) {
        if (isBusy(error)) await shedConnection();
        throw error;
      } finally {
        release();
      }
    };
  const unsynced = async <Result>(run: () => Promise<Result>): Promise<Result> => {
    await adapter.executeScript(UNSYNCED);
    try {
      return await run();
    } finally {
      await adapter.executeScript(SYNCED);
    }
  };
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: outsideTransaction((query) => (query.sql.startsWith(withoutSync) ? unsynced(() => adapter.queryRaw(query)) : adapter.queryRaw(query))),
    executeRaw: outsideTransaction((query) => adapter.executeRaw(query)),
    executeScript: outsideTransaction((script: string) => adapter.executeScript(script)),
    startTransaction: async (isolationLevel) => {
      // Held until the transaction ends, as the adapter holds its own lock.
      const release = await turn();
      try {
        return withRollbackOnFailedCommit(await adapter.startTransaction(isolationLevel), release);
      } catch (error) {
        release();
        throw error;
      }
    },
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: () => adapter.dispose(),
  };
}

/**
 * The libSQL adapter factory for a local file, with the repairs above. `withoutSync` is the mark
 * of statements that commit without a sync; `turnTimeoutMs`, how long a call waits for its turn.
 */
export function libsqlFileAdapter(factory: SqlDriverAdapterFactory, withoutSync: string, turnTimeoutMs: number): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => repaired(await factory.connect(), withoutSync, turnTimeoutMs),
  };
}
