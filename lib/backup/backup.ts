/**
 * Backups of the embedded SQLite database, and restoring one (docs/operations.md,
 * "Backups"): `npm run waitlist -- backup FILE` and `restore FILE`, and the
 * scheduled backups (schedule.ts). The copying is SQLite's online backup, in a
 * process of its own (lib/db/sqlite-backup.mjs), so it runs while the site takes sign-ups.
 */
import "server-only";
import { existsSync } from "node:fs";
import { open, readFile, readdir, readlink, realpath, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { fork } from "node:child_process";

/** A backup or restore that cannot be done, with the reason in words. */
export class BackupProblem extends Error {}

type BackupResult = { file: string; bytes: number; entries: number; ms: number };

/** The database is open in another process (a running instance of the site, an operator command). */
export class DatabaseInUse extends BackupProblem {}

type Job = "backup" | "check" | "restore" | "inUse";

/** Runs one job of lib/db/sqlite-backup.mjs; the number of sign-ups in the result. */
function runJob(job: Job, source: string, target?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const script = path.join(process.cwd(), "lib", "db", "sqlite-backup.mjs");
    // Its own output goes to ours (a crash's trace); its answer comes back as a message.
    const child = fork(/*turbopackIgnore: true*/ script, [JSON.stringify({ job, source, target })], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      execArgv: [],
    });
    let answered = false;
    child.once("message", (answer: { ok: true; entries: number } | { ok: false; message: string; inUse: boolean }) => {
      answered = true;
      if (answer.ok) resolve(answer.entries);
      else if (answer.inUse) void inUseProblem(job === "restore" ? target! : source).then(reject, reject);
      else reject(new BackupProblem(answer.message));
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (!answered) reject(new BackupProblem(`the backup process stopped (${signal ?? `exit code ${code}`}) before it finished`));
    });
  });
}

/** Makes a file's new name, or its contents, survive a power cut: fsync the file, or its folder. */
async function syncToDisk(file: string): Promise<void> {
  const handle = await open(file, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Copies the live database at `liveFile` to `targetFile`, while the site runs: written beside the
 * target first, checked (SQLite's integrity check, the waitlist's tables), synced to disk, and only
 * then given the target's name, so a file with that name is always a whole, checked backup.
 */
export async function backUpDatabase(liveFile: string, targetFile: string, options: { replace?: boolean } = {}): Promise<BackupResult> {
  const started = performance.now();
  const target = path.resolve(targetFile);
  if (!existsSync(liveFile)) throw new BackupProblem(`There is no database at ${liveFile} to back up.`);
  if (path.resolve(liveFile) === target) throw new BackupProblem("The backup cannot be the database itself: name another file.");
  if (!existsSync(path.dirname(target))) throw new BackupProblem(`The folder ${path.dirname(target)} does not exist.`);
  if (existsSync(target) && !options.replace)
    throw new BackupProblem(`${target} already exists. Name another file, or pass --force to replace it.`);
  const partial = `${target}.partial`;
  await removeDatabaseFiles(partial);
  try {
    const entries = await runJob("backup", liveFile, partial);
    await syncToDisk(partial);
    await rename(partial, target);
    await syncToDisk(path.dirname(target));
    return { file: target, bytes: (await stat(target)).size, entries, ms: Math.round(performance.now() - started) };
  } catch (error) {
    await removeDatabaseFiles(partial);
    throw error;
  }
}

/** A database file with its journal, log and shared-memory files. */
async function removeDatabaseFiles(file: string): Promise<void> {
  for (const suffix of ["", "-journal", "-wal", "-shm"]) await rm(`${file}${suffix}`, { force: true });
}

/** The number of sign-ups in a backup, after checking it is a whole waitlist database. */
export async function checkBackup(file: string): Promise<number> {
  if (!existsSync(file)) throw new BackupProblem(`There is no file at ${file}.`);
  return runJob("check", path.resolve(file));
}

/**
 * The processes on this machine with the file (or its write-ahead log) open, as "pid 12 (node
 * server.ts)", read from /proc (Linux). Only to name what to stop: the lock is what decides, and
 * it also sees processes this one cannot (another container sharing the volume).
 */
async function processesWithOpen(file: string): Promise<string[]> {
  const wanted = new Set<string>();
  for (const name of [file, `${file}-wal`])
    wanted.add(await realpath(/*turbopackIgnore: true*/ name).catch(() => path.resolve(/*turbopackIgnore: true*/ name)));
  const found: string[] = [];
  const pids = await readdir("/proc").catch(() => [] as string[]);
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    const descriptors = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of descriptors) {
      if (!wanted.has(await readlink(`/proc/${pid}/fd/${fd}`).catch(() => ""))) continue;
      const command = (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")).split("\0").filter(Boolean).join(" ");
      found.push(`pid ${pid} (${command.slice(0, 120) || "unknown"})`);
      break;
    }
  }
  return found;
}

async function inUseProblem(file: string): Promise<DatabaseInUse> {
  const processes = await processesWithOpen(file);
  const which =
    processes.length > 0 ? `: ${processes.join("; ")}` : " (a process this machine does not show, such as one in another container)";
  return new DatabaseInUse(
    `The database at ${file} is open in another process${which}. Stop every instance of the site and any operator command using it, then restore again. Nothing was changed.`,
  );
}

/** Refuses (DatabaseInUse) while another process has the database open. */
export async function refuseIfInUse(file: string): Promise<void> {
  if (existsSync(file)) await runJob("inUse", path.resolve(file));
}

type RestoreResult = { entries: number; savedAs: string | null };

/**
 * Puts the backup at `backupFile` in place of the live database, after checking it. The database as
 * it was is backed up first, beside it (`<file>.before-restore-<time>`), so what came after the
 * backup is not lost. Refused while any other process has the database open (an instance of the
 * site would go on taking sign-ups into the database being replaced, and lose them).
 */
export async function restoreDatabase(backupFile: string, liveFile: string, now = new Date()): Promise<RestoreResult> {
  const backup = path.resolve(backupFile);
  await checkBackup(backup);
  if (backup === path.resolve(liveFile)) throw new BackupProblem("That is the live database itself: name a backup.");
  // Before anything is written; the restore job looks again just before it copies.
  await refuseIfInUse(liveFile);
  let savedAs: string | null = null;
  if (existsSync(liveFile)) {
    savedAs = `${liveFile}.before-restore-${backupStamp(now)}`;
    await backUpDatabase(liveFile, savedAs);
  }
  const entries = await runJob("restore", backup, path.resolve(liveFile));
  return { entries, savedAs };
}

/** 20261125T061500Z: a moment as a file name can hold it, in UTC, sorting as time does. */
export function backupStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}
