/**
 * Scheduled backups (WAITLIST_BACKUP_DIR, WAITLIST_BACKUP_INTERVAL_MINUTES,
 * WAITLIST_BACKUP_KEEP): every instance looks a few times per interval, and
 * one of them makes the backup when the newest in the folder is an interval
 * old; the newest WAITLIST_BACKUP_KEEP are kept. Instances agree through the
 * folder itself (its newest backup, and a lock file while one is being made),
 * so two instances on one database make one backup, not two. Failures are
 * logged and shown on /api/health (backupHealth).
 */
import "server-only";
import { mkdir, open, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { errorFields, log } from "../log";
import { runPeriodically } from "../periodic";
import { singleton } from "../singleton";
import { backUpDatabase, backupStamp } from "./backup";

/** waitlist-20261125T061500Z.db: what the schedule names its backups, and the only files it deletes. */
const BACKUP_FILE = /^waitlist-(\d{8}T\d{6}Z)\.db$/;
const LOCK_FILE = ".backup-in-progress";
/** A lock older than this was left by an instance that died mid-backup. */
const STALE_LOCK_MS = 60 * 60 * 1000;
/** The longest between two looks; a look costs a listing of the folder. */
const LONGEST_LOOK_MS = 10 * 60 * 1000;

type BackupSchedule = { dir: string; intervalMinutes: number; keep: number; databaseFile: string };

type BackupState = {
  schedule: BackupSchedule | null;
  /** The newest backup in the folder at the last look (this instance's or another's). */
  newest: { file: string; at: Date } | null;
  lastFailureAt: Date | null;
  /** Failures since the last success: reset by a success (this instance's or another's). */
  failuresInARow: number;
  looked: boolean;
};

// One per process: server.ts starts the schedule, the health route (its own bundle) reads it.
const state = singleton("backup state", (): BackupState => ({
  schedule: null,
  newest: null,
  lastFailureAt: null,
  failuresInARow: 0,
  looked: false,
}));

function stampToDate(stamp: string): Date {
  return new Date(stamp.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z"));
}

/** The schedule's backups in `dir`, newest first. */
async function backupsIn(dir: string): Promise<{ file: string; at: Date }[]> {
  const names = await readdir(dir);
  return names
    .flatMap((name) => {
      const match = BACKUP_FILE.exec(name);
      return match ? [{ file: path.join(dir, name), at: stampToDate(match[1]!) }] : [];
    })
    .sort((a, b) => b.at.getTime() - a.at.getTime());
}

/** Takes the folder's lock, or says another instance holds it (false). A lock left by a dead instance is taken over. */
async function takeLock(dir: string): Promise<boolean> {
  const lock = path.join(dir, LOCK_FILE);
  try {
    await (await open(lock, "wx")).close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const age = Date.now() - (await stat(lock)).mtimeMs;
    if (age < STALE_LOCK_MS) return false;
    await rm(lock, { force: true });
    return takeLock(dir);
  }
}

/**
 * One look: a backup if the newest is an interval old (or there is none), then the oldest beyond
 * `keep` deleted. Returns the file made, or null when none was due or another instance is making it.
 */
export async function backUpIfDue(schedule: BackupSchedule, now = new Date()): Promise<string | null> {
  // Made if missing, for the owner alone (backups hold every entry); an existing folder is left as it is.
  await mkdir(schedule.dir, { recursive: true, mode: 0o700 });
  const existing = await backupsIn(schedule.dir);
  state.looked = true;
  state.newest = existing[0] ?? state.newest;
  if (existing[0] && now.getTime() - existing[0].at.getTime() < schedule.intervalMinutes * 60_000) {
    state.failuresInARow = 0;
    return null;
  }
  if (!(await takeLock(schedule.dir))) return null;
  try {
    const result = await backUpDatabase(schedule.databaseFile, path.join(schedule.dir, `waitlist-${backupStamp(now)}.db`));
    state.newest = { file: result.file, at: now };
    state.failuresInARow = 0;
    log.info({ backup: result.file, bytes: result.bytes, entries: result.entries, ms: result.ms }, "scheduled backup made");
    for (const old of (await backupsIn(schedule.dir)).slice(schedule.keep)) await rm(old.file, { force: true });
    return result.file;
  } finally {
    await rm(path.join(schedule.dir, LOCK_FILE), { force: true });
  }
}

/** Starts this instance's looks; returns the function that stops them. */
export function startBackupSchedule(schedule: BackupSchedule): () => void {
  state.schedule = schedule;
  const intervalMs = schedule.intervalMinutes * 60_000;
  return runPeriodically({
    name: "scheduled_backup",
    everyMs: Math.min(intervalMs / 4, LONGEST_LOOK_MS),
    run: async () => {
      try {
        await backUpIfDue(schedule);
      } catch (error) {
        state.failuresInARow += 1;
        state.lastFailureAt = new Date();
        log.error(
          { fault: "backup_failed", failures_in_a_row: state.failuresInARow, ...errorFields(error) },
          "scheduled backup failed; trying again at the next look",
        );
      }
    },
  });
}

/**
 * Backups' state on /api/health. "ok": the newest is within twice the interval; "failing": this
 * instance's last try failed (why is in its log, not here: the answer is public); "overdue": none that
 * recent; "starting": the first look is still to come. None of these makes the instance unhealthy: it
 * still takes sign-ups, and a load balancer should keep sending it visitors.
 */
type BackupHealth = {
  status: "ok" | "failing" | "overdue" | "starting";
  every_minutes: number;
  newest_at: string | null;
  last_failure_at: string | null;
};

/** What /api/health says of backups, or nothing when none are scheduled in this process. */
export function backupHealth(now = new Date()): BackupHealth | undefined {
  const { schedule, newest, lastFailureAt, failuresInARow, looked } = state;
  if (!schedule) return undefined;
  const recent = newest !== null && now.getTime() - newest.at.getTime() < 2 * schedule.intervalMinutes * 60_000;
  return {
    status: failuresInARow > 0 ? "failing" : recent ? "ok" : looked ? "overdue" : "starting",
    every_minutes: schedule.intervalMinutes,
    newest_at: newest?.at.toISOString() ?? null,
    last_failure_at: lastFailureAt?.toISOString() ?? null,
  };
}
