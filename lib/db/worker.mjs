// The embedded SQLite file's connection, in a worker thread (lib/db/worker-connection.ts). Prisma's
// own better-sqlite3 adapter runs here and does all the mapping of values and
// errors; the main thread only sends it queries. better-sqlite3 is synchronous,
// so a statement and the sync to disk at its commit (about 1.5 ms for a batch of
// sign-ups here) would otherwise stop the event loop, and every request with it.
import { parentPort, workerData } from "node:worker_threads";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

/** What can cross to the main thread: a plain object the main thread turns back into an error. */
function portable(error) {
  if (!error || typeof error !== "object") return { name: "Error", message: String(error) };
  return { name: error.name, message: error.message, cause: error.cause, code: error.code };
}

let adapter;
try {
  adapter = await new PrismaBetterSQLite3(workerData.config).connect();
  await adapter.executeScript(workerData.setup);
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ ready: false, error: portable(error) });
}

/** A statement marked WITHOUT_SYNC (lib/db/index.ts) commits with synchronous=NORMAL: no sync of its own. */
async function withoutSync(run) {
  await adapter.executeScript("PRAGMA synchronous = NORMAL");
  try {
    return await run();
  } finally {
    await adapter.executeScript(workerData.setup);
  }
}

const transactions = new Map();
let lastTransaction = 0;

parentPort.on("message", async ({ id, op, tx, arg }) => {
  // Only the main side's numbered requests are ours to answer.
  if (typeof id !== "number") return;
  try {
    const target = tx === undefined ? adapter : transactions.get(tx);
    let value;
    if (op === "queryRaw" && arg.sql.startsWith(workerData.withoutSync)) value = await withoutSync(() => target.queryRaw(arg));
    else if (op === "queryRaw") value = await target.queryRaw(arg);
    else if (op === "executeRaw") value = await target.executeRaw(arg);
    else if (op === "executeScript") value = await adapter.executeScript(arg);
    else if (op === "startTransaction") {
      const transaction = await adapter.startTransaction(arg);
      lastTransaction += 1;
      transactions.set(lastTransaction, transaction);
      value = { tx: lastTransaction, options: transaction.options };
    } else if (op === "commit" || op === "rollback") {
      transactions.delete(tx);
      await target[op]();
    } else if (op === "dispose") await adapter.dispose();
    parentPort.postMessage({ id, ok: true, value });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, error: portable(error) });
  }
});
