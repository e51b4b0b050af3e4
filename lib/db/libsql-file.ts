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
 */
import "server-only";
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";
import { temporaryKind } from "./errors";

type DriverAdapter = Awaited<ReturnType<SqlDriverAdapterFactory["connect"]>>;
type DriverTransaction = Awaited<ReturnType<DriverAdapter["startTransaction"]>>;

const isBusy = (error: unknown) => temporaryKind(error) === "database_busy";

function withRollbackOnFailedCommit(transaction: DriverTransaction): DriverTransaction {
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
      }
    },
    rollback: () => transaction.rollback(),
  };
}

function repaired(adapter: DriverAdapter): DriverAdapter {
  /** Takes the connection that holds a failed statement out of use (see above); never throws. */
  const shedConnection = async () => {
    try {
      await (await adapter.startTransaction()).rollback();
    } catch {
      // The next query opens what it needs; this was only a clean-up.
    }
  };
  const outsideTransaction =
    <Args extends unknown[], Result>(run: (...args: Args) => Promise<Result>) =>
    async (...args: Args): Promise<Result> => {
      try {
        return await run(...args);
      } catch (error) {
        if (isBusy(error)) await shedConnection();
        throw error;
      }
    };
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: outsideTransaction((query) => adapter.queryRaw(query)),
    executeRaw: outsideTransaction((query) => adapter.executeRaw(query)),
    executeScript: outsideTransaction((script: string) => adapter.executeScript(script)),
    startTransaction: async (isolationLevel) => withRollbackOnFailedCommit(await adapter.startTransaction(isolationLevel)),
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: () => adapter.dispose(),
  };
}

/** The libSQL adapter factory for a local file, with the repairs above. */
export function libsqlFileAdapter(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => repaired(await factory.connect()),
  };
}
