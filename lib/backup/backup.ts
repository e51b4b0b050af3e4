/**
 * Backups of the embedded SQLite database, and restoring one (docs/operations.md,
 * "Backups"): `npm run waitlist -- backup FILE` and `restore FILE`, and the
 * scheduled backups (schedule.ts). The copying is SQLite's online backup, in a
 * process of its own (lib/db/sqlite-backup.mjs), so it runs while the site takes sign-ups.
 */
import "server-only";
import { existsSync } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { fork } from "node:child_process";

/** A backup or restore that cannot be done, with the reason in words. */
export class BackupProblem extends Error {}

export type BackupResult = { file: string; bytes: number; entries: number; ms: number };

type Job = "backup" | "check" | "restore";

/** Runs one job of lib/db/sqlite-backup.mjs; the number of sign-ups in the result. */
function runJob(job: Job, source: string, target?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const script = path.join(process.cwd(), "lib", "db", "sqlite-backup.mjs");
    // Its own output goes to ours (a crash's trace); its answer comes back as a message.
    const child = fork(/*turbopackIgnore: true*/ script, [JSON.stringify({ job, source, target })], { stdio: ["ignore", "inherit", "inherit", "ipc"], execArgv: [] });
    let answered = false;
    child.once("message", (answer: { ok: true; entries: number } | { ok: false; message: string }) => {
      answered = true;
      if (answer.ok) resolve(answer.entries);
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
  if (existsSync(target) && !options.replace) throw new BackupProblem(`${target} already exists. Name another file, or pass --force to replace it.`);
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

export type RestoreResult = { entries: number; savedAs: string | null };

/**
 * Puts the backup at `backupFile` in place of the live database, after checking it. The database as
 * it was is backed up first, beside it (`<file>.before-restore-<time>`), so what came after the
 * backup is not lost. The copy takes the live database's write lock, so a connection still open
 * sees the old database or the new one, never a mix; the site should still be stopped first
 * (docs/operations.md), since an instance's own in-memory counts would be of the old one.
 */
export async function restoreDatabase(backupFile: string, liveFile: string, now = new Date()): Promise<RestoreResult> {
  const backup = path.resolve(backupFile);
  await checkBackup(backup);
  if (backup === path.resolve(liveFile)) throw new BackupProblem("That is the live database itself: name a backup.");
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
  return date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}
