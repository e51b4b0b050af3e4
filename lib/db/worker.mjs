// The embedded SQLite file's connection, in a worker thread (lib/db/worker-connection.ts). Prisma's
// own adapter for the driver (better-sqlite3, or libSQL's for DATABASE_DRIVER=libsql) runs here
// and does all the mapping of values and errors; the main thread only sends it queries. Both
// engines run a statement, and the sync to disk at its commit, on the thread that calls them: on
// the main thread that would stop the event loop, and every request with it.
// @ts-check: the messages are typed in ./thread-protocol.ts, shared with the main side.
import { parentPort as port, workerData } from "node:worker_threads";
import { threadTimes } from "./thread-time.mjs";

/** @typedef {import("./thread-protocol").ThreadRequest} ThreadRequest */
/** @typedef {import("./thread-protocol").ThreadReply} ThreadReply */
/** @typedef {import("./thread-protocol").ThreadFailure} ThreadFailure */
/** @typedef {import("./thread-protocol").ThreadReady} ThreadReady */
/** @typedef {import("./thread-protocol").ThreadAdapter} Adapter */
/** @typedef {Awaited<ReturnType<Adapter["startTransaction"]>>} Transaction */

/** @type {import("./thread-protocol").ThreadSettings} */
const settings = workerData;
const parentPort = /** @type {import("node:worker_threads").MessagePort} */ (port);

/** @param {ThreadReply | ThreadReady} message */
function reply(message) {
  parentPort.postMessage(message);
}

/**
 * What can cross to the main thread: a plain object the main thread turns back into an error.
 * @param {any} error
 * @returns {ThreadFailure}
 */
function portable(error) {
  if (!error || typeof error !== "object") return { name: "Error", message: String(error) };
  return { name: error.name, message: error.message, cause: error.cause, code: error.code };
}

/**
 * The driver's adapter on the file, with its connection's settings applied.
 * @returns {Promise<Adapter>}
 */
async function open() {
  if (settings.driver === "libsql") {
    // libSQL's client opens a new connection after each transaction, so settings made on one
    // would not last: its defaults are the ones wanted (synchronous=FULL, foreign keys on).
    const { PrismaLibSQL } = await import("@prisma/adapter-libsql");
    return new PrismaLibSQL({ url: `file:${settings.config.url}` }).connect();
  }
  const { PrismaBetterSQLite3 } = await import("@prisma/adapter-better-sqlite3");
  const opened = await new PrismaBetterSQLite3(settings.config).connect();
  await opened.executeScript(settings.setup);
  return opened;
}

/**
 * A second connection of the same driver that reads once and stays open, so this process holds a
 * shared lock on the file for as long as the thread lives (in WAL mode SQLite keeps it between
 * transactions). `restore` looks for such locks (lib/backup/backup.ts) to refuse to replace a
 * database an instance has open: a lock, unlike a PID file, goes when the process does, however
 * it ends. libSQL's client swaps connections after each transaction, so the working connection
 * alone would not always hold one.
 */
/** @type {Adapter | undefined} */
let presence;
async function holdPresence() {
  presence = await open();
  await presence.queryRaw({ sql: "SELECT count(*) FROM sqlite_master", args: [], argTypes: [] });
}

/** @type {Adapter} */
let adapter;
try {
  adapter = await open();
  await holdPresence();
  reply({ ready: true });
} catch (error) {
  reply({ ready: false, error: portable(error) });
}

/**
 * A statement led by markers (lib/db/index.ts: WITHOUT_SYNC commits with synchronous=NORMAL, no sync
 * of its own; WITHOUT_WAITING runs with no busy timeout) runs with those settings, and the connection
 * is put back after it, whatever became of it. Nothing else runs on the connection meanwhile: the
 * main side sends one query at a time.
 */
/**
 * @template T
 * @param {string} sql
 * @param {() => Promise<T>} run
 * @returns {Promise<T>}
 */
async function withSettingsOf(sql, run) {
  const head = sql.slice(0, 120);
  const marked = settings.markers.filter(({ marker }) => head.includes(marker));
  if (marked.length === 0) return run();
  await adapter.executeScript(marked.map(({ set }) => set).join("; "));
  try {
    return await run();
  } finally {
    await adapter.executeScript(marked.map(({ reset }) => reset).join("; "));
  }
}

/**
 * After a write outside a transaction failed busy on libSQL: its binding leaves the failed
 * statement in progress on the connection (tursodatabase/libsql-client-ts#352), and the client
 * hands that connection to the next transaction, whose COMMIT then fails. An empty transaction
 * takes the connection out of the client's hands (it opens a fresh one for what comes next) and
 * rolls it back. Never throws: it is only a clean-up.
 */
async function shedConnection() {
  try {
    await (await adapter.startTransaction()).rollback();
  } catch {
    // The next query opens what it needs.
  }
}

/**
 * A COMMIT that fails (busy) leaves the transaction open, and Prisma's engine never rolls back
 * a transaction whose commit failed (prisma/orm#30028): its BEGIN would hold the write lock
 * until the process ends, and no instance could write again. So it is rolled back here before
 * the error goes on; a failure of that rollback is not the error that matters.
 */
/** @param {Transaction} transaction */
async function commit(transaction) {
  try {
    await transaction.commit();
  } catch (error) {
    await transaction.rollback().catch(() => {});
    throw error;
  }
}

/**
 * Open transactions by number, each with when it began: a transaction holds the write lock from its first write to its end.
 * @type {Map<number, { transaction: Transaction; began: number; first: string | undefined }>}
 */
const transactions = new Map();
let lastTransaction = 0;

/**
 * How long the thread was busy with one request, or a transaction open, in ms, when that reached
 * workerData.slowMs: everything else waits for the database meanwhile (sign-ups included), so the
 * main side logs it (slow_query, docs/operations.md). Undefined below the threshold.
 */
/** @param {number} ms */
function slow(ms) {
  return ms >= settings.slowMs ? tenths(ms) : undefined;
}

/** @param {number} ms */
function tenths(ms) {
  return Math.round(ms * 10) / 10;
}
/**
 * This thread's CPU and run-queue times (Linux), read around each request (about 2 µs); only by a
 * client that logs slow queries (the site's), never by the operator tool's or a script's.
 */
const times = Number.isFinite(settings.slowMs) ? threadTimes() : undefined;

/**
 * A slow request's time (ms, as slow() gives it), with how much of it this thread ran on a CPU and
 * how much it was ready but waited for one: a statement slow for want of CPU (other threads and
 * processes busy) reads as queued, one slow for its own work as CPU; the rest was waiting on the
 * disk (a sync), a lock or a sleep. The times are read right after the clock, so both cover the
 * same span; the kernel brings a running thread's CPU time up to date at its clock tick, so cpuMs
 * may be off by a few ms either way. Empty below the threshold.
 */
/**
 * @param {number} started
 * @param {import("./thread-time.mjs").ThreadTimes | undefined} timesBefore
 */
function slowness(started, timesBefore) {
  const ms = slow(performance.now() - started);
  if (ms === undefined) return {};
  if (!timesBefore) return { slowMs: ms };
  const after = /** @type {NonNullable<typeof times>} */ (times)();
  return { slowMs: ms, cpuMs: tenths(after.cpuMs - timesBefore.cpuMs), queuedMs: tenths(after.queuedMs - timesBefore.queuedMs) };
}

parentPort.on("message", async (/** @type {ThreadRequest} */ request) => {
  // Only the main side's numbered requests are ours to answer.
  if (typeof request?.id !== "number") return;
  const { id, tx } = request;
  const timesBefore = times?.();
  const started = performance.now();
  /** The transaction this request ends (commit, rollback), for the slow log. */
  let ended;
  try {
    const open = tx === undefined ? undefined : transactions.get(tx);
    if (tx !== undefined && !open) throw new Error(`no open transaction ${tx}`);
    const target = open ? open.transaction : adapter;
    /** @type {unknown} */
    let value;
    switch (request.op) {
      case "queryRaw":
      case "executeRaw": {
        const statement = request.arg;
        // A transaction is known in the slow log by its first statement.
        if (open && open.first === undefined) open.first = statement.sql;
        value = await withSettingsOf(statement.sql, async () =>
          request.op === "queryRaw" ? await target.queryRaw(statement) : await target.executeRaw(statement),
        );
        break;
      }
      case "executeScript":
        value = await adapter.executeScript(request.arg);
        break;
      case "startTransaction": {
        const transaction = await adapter.startTransaction(request.arg);
        lastTransaction += 1;
        transactions.set(lastTransaction, { transaction, began: started, first: undefined });
        value = { tx: lastTransaction, options: transaction.options };
        break;
      }
      case "commit":
      case "rollback": {
        if (!open) throw new Error(`${request.op} outside a transaction`);
        ended = open;
        transactions.delete(/** @type {number} */ (tx));
        if (request.op === "commit") await commit(open.transaction);
        else await open.transaction.rollback();
        break;
      }
      case "shedConnection":
        await shedConnection();
        break;
      case "dispose":
        await Promise.all([adapter.dispose(), presence?.dispose()]);
        break;
    }
    const spent = slowness(started, timesBefore);
    const openMs = ended === undefined ? undefined : slow(performance.now() - ended.began);
    reply({ id, ok: true, value, ...spent, openMs, firstStatement: openMs === undefined ? undefined : ended?.first });
  } catch (error) {
    reply({ id, ok: false, error: portable(error), ...slowness(started, timesBefore) });
  }
});
