// The embedded SQLite file's connection, in a worker thread (lib/db/worker-connection.ts). Prisma's
// own better-sqlite3 adapter runs here and does all the mapping of values and
// errors; the main thread only sends it queries. better-sqlite3 is synchronous,
// so a statement and the sync to disk at its commit (about 1.5 ms for a batch of
// sign-ups here) would otherwise stop the event loop, and every request with it.
//
// Tasks (lib/db/tasks.ts) run here too, on a Prisma Client of this thread over the same connection,
// so the main thread pays one message for them instead of Prisma Client's work per call.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

/** What can cross to the main thread: a plain object the main thread turns back into an error. */
function portable(error) {
  if (!error || typeof error !== "object") return { name: "Error", message: String(error) };
  return { name: error.name, message: error.message, cause: plain(error.cause), code: error.code, meta: plain(error.meta), stack: error.stack };
}

/** A value as plain data (Prisma's error meta can hold objects a thread cannot be sent). */
function plain(value) {
  if (value === undefined || value === null || typeof value !== "object") return value;
  try {
    return JSON.parse(JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? String(item) : item)));
  } catch {
    return String(value);
  }
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

/**
 * A module of the project, from its source: TypeScript through tsx, registered in this thread (a
 * process started with `--import tsx` does not carry its hooks into worker threads on Node 20).
 * Loaded by Node at run time, never by the build (the ignore comments).
 */
let typeScript;
/** Each module once: an import() goes through tsx's resolver (another thread) every time, cached or not. */
const projectModules = new Map();
function projectModule(file) {
  typeScript ??= import(/* turbopackIgnore: true */ /* webpackIgnore: true */ "tsx/esm/api").then(({ register }) => void register());
  if (!projectModules.has(file)) {
    const url = pathToFileURL(path.resolve(/* turbopackIgnore: true */ process.cwd(), file)).href;
    projectModules.set(file, typeScript.then(() => import(/* turbopackIgnore: true */ /* webpackIgnore: true */ url)));
  }
  return projectModules.get(file);
}

/**
 * This thread's Prisma Client, made at the first task: the connection above, with the same
 * WITHOUT_SYNC rule as the main side's queries, and never closed by the client (the thread owns it).
 */
let taskClient;
function tasksClient() {
  taskClient ??= projectModule("lib/generated/prisma/client.ts").then(({ PrismaClient }) => {
    const shared = {
      provider: adapter.provider,
      adapterName: adapter.adapterName,
      queryRaw: (query) => (query.sql.startsWith(workerData.withoutSync) ? withoutSync(() => adapter.queryRaw(query)) : adapter.queryRaw(query)),
      executeRaw: (query) => adapter.executeRaw(query),
      executeScript: (script) => adapter.executeScript(script),
      startTransaction: (isolationLevel) => adapter.startTransaction(isolationLevel),
      getConnectionInfo: adapter.getConnectionInfo ? () => adapter.getConnectionInfo() : undefined,
      dispose: async () => {},
    };
    return new PrismaClient({ adapter: { provider: shared.provider, adapterName: shared.adapterName, connect: async () => shared } });
  });
  return taskClient;
}

async function runTask({ module, name, input }) {
  const [client, exports] = await Promise.all([tasksClient(), projectModule(module)]);
  if (typeof exports[name] !== "function") throw new Error(`${module} exports no task ${name}`);
  return exports[name](client, input);
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
    else if (op === "task") value = await runTask(arg);
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
