// The site's checkpoints of the write-ahead log, in a thread of their own with a connection of their
// own (lib/db/worker-connection.ts starts it for the site's client). SQLite otherwise checkpoints
// inside whichever commit passes wal_autocheckpoint pages: a sign-up batch or an outbox statement
// then holds the site's one connection, and every request behind it, for the copy and its syncs
// (25-48 ms at a million entries, docs/performance.md). A PASSIVE checkpoint here never waits for a
// reader or a writer and blocks neither; one that meets another process's checkpoint skips a turn.
// The site's connection keeps a much larger wal_autocheckpoint as a safety net if this thread stops.
import { parentPort, workerData } from "node:worker_threads";

const CHECKPOINT = { sql: "PRAGMA wal_checkpoint(PASSIVE)", args: [], argTypes: [] };

async function open() {
  if (workerData.driver === "libsql") {
    const { PrismaLibSQL } = await import("@prisma/adapter-libsql");
    return new PrismaLibSQL({ url: `file:${workerData.file}` }).connect();
  }
  const { PrismaBetterSQLite3 } = await import("@prisma/adapter-better-sqlite3");
  return new PrismaBetterSQLite3({ url: workerData.file, fileMustExist: true, timeout: 0 }).connect();
}

let adapter;
let stopped = false;
let running = false;

async function checkpoint() {
  if (running || stopped) return;
  running = true;
  try {
    adapter ??= await open();
    await adapter.queryRaw(CHECKPOINT);
  } catch {
    // The file cannot be opened or is busy: the site's own connection reports that; try next turn.
    await adapter?.dispose().catch(() => {});
    adapter = undefined;
  } finally {
    running = false;
  }
}

const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on("message", async (message) => {
  if (message !== "stop") return;
  stopped = true;
  clearInterval(timer);
  while (running) await new Promise((resolve) => setTimeout(resolve, 5));
  await adapter?.dispose().catch(() => {});
  parentPort.postMessage("stopped");
});
