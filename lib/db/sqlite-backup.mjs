// SQLite's online backup of the embedded database, in a process of its own started by
// lib/backup/backup.ts (the file is here because only lib/db/ talks to drivers): a large copy and its integrity check never stop the site's event loop, and its connections take
// part in the site's file locks. (A thread would not do with libSQL: SQLite's locks are the
// process's, and a second SQLite library in the same process, better-sqlite3's here, closing its
// file would drop libSQL's locks and could delete the write-ahead log under it.)
//
// Started with one argument, JSON: { job: "backup" | "check" | "restore", source, target }
// - backup: copies `source` (the live database, while the site runs) to `target` with SQLite's
//   backup API, then checks the copy and makes it one self-contained file (rollback journal).
// - check: checks `source` is a whole waitlist database.
// - restore: copies `source` (a checked backup) over `target` (the live database) with the same API,
//   which takes the live database's write lock, so no connection sees half of it.
// - restore first makes sure no other process has the live database open (openElsewhere), and
//   refuses with { ok: false, inUse: true } if one has.
// - inUse: only that check, on `source`.
// Answers { ok: true, entries } or { ok: false, message, inUse? }.
import Database from "better-sqlite3";

const { job, source, target } = JSON.parse(process.argv[2]);
// Every file made here (a backup, the copy kept before a restore, their journals) is the owner's
// alone: each holds every entry and the operators' sessions.
process.umask(0o077);
/** How long to wait for another connection's write lock, as the site's own connections do. */
const BUSY_TIMEOUT_MS = 5_000;
/**
 * Pages per step after the first: all of them. The backup API starts again whenever another
 * connection writes between two steps, so under steady sign-ups small steps might never finish;
 * one step holds a read snapshot instead, which in WAL mode does not hold up writers.
 */
const ALL_PAGES = 0x7fffffff;

/** Integrity and shape: SQLite's own check, and the tables a waitlist database has. */
function check(file) {
  const db = new Database(file, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    const integrity = db.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new Error(`${file} failed SQLite's integrity check: ${integrity}`);
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all());
    for (const table of ["_prisma_migrations", "waitlist_entries"]) {
      if (!tables.has(table)) throw new Error(`${file} is not a waitlist database (it has no ${table} table)`);
    }
    return db.prepare("SELECT count(*) FROM waitlist_entries").pluck().get();
  } finally {
    db.close();
  }
}

async function copy(from, to) {
  const db = new Database(from, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    await db.backup(to, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
}

/**
 * Whether another process has the database open. Every instance of the site keeps a connection
 * that holds a shared lock on the file (lib/db/worker.mjs), so an exclusive lock is granted only
 * when none is open; it is released at once. No waiting: a lock held means in use.
 */
function openElsewhere(file) {
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma("locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("ROLLBACK");
    return false;
  } catch (error) {
    if (error?.code === "SQLITE_BUSY" || error?.code === "SQLITE_LOCKED") return true;
    throw error;
  } finally {
    db.close();
  }
}

class InUse extends Error {}

try {
  let entries;
  if (job === "backup") {
    await copy(source, target);
    entries = check(target);
    // One file on its own: no -wal or -shm beside it to lose when it is copied somewhere.
    const db = new Database(target, { fileMustExist: true });
    db.pragma("journal_mode = DELETE");
    db.close();
  } else if (job === "check") {
    entries = check(source);
  } else if (job === "inUse") {
    if (openElsewhere(source)) throw new InUse();
    entries = 0;
  } else if (job === "restore") {
    check(source);
    if (openElsewhere(target)) throw new InUse();
    await copy(source, target);
    entries = check(target);
  } else {
    throw new Error(`unknown job ${job}`);
  }
  process.send({ ok: true, entries });
} catch (error) {
  process.send({ ok: false, message: error instanceof Error ? error.message : String(error), inUse: error instanceof InUse });
}
process.disconnect();
