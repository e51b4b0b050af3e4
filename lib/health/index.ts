/**
 * GET /api/health: whether this instance can take sign-ups, for load balancers,
 * process managers and uptime checks (docs/deployment.md). 200 when the database
 * answers and has every migration this version ships; 503 when it does not
 * answer, when a migration is pending, while the instance shuts down, or when it
 * answers but cannot store anything (status "degraded": a full or read-only disk,
 * I/O errors). Never
 * cached, and answered within HEALTH_DEADLINE_MS whatever the database does: a
 * database that does not answer in time is a 503 with the reason. Migrations
 * the database has and this version does not ship (a newer
 * version migrated it during a rolling upgrade) are listed, not fatal: this
 * project's migrations only add. The answer names problems, not their details: those
 * go to the server's log.
 */
import "server-only";
import { constants, readdirSync } from "node:fs";
import { access, statfs } from "node:fs/promises";
import path from "node:path";
import { backupHealth } from "../backup/schedule";
import { getDatabase, temporaryKind, type Database } from "../db";
import { recentWriteFailure } from "../db/write-state";
import { databaseSettings, parseEnv } from "../env";
import { json } from "../http";
import { errorFields, log } from "../log";
import { singleton } from "../singleton";
import { sendingProblems } from "../waitlist/bounces";
import { LATE, within } from "../time";

/** The longest the database gets to answer a health check; the answer goes out well within 2 s. */
const HEALTH_DEADLINE_MS = 1_500;

// One per process: server.ts sets it, the health route (its own bundle) reads it.
const state = singleton("shutdown state", () => ({ shuttingDown: false }));

/** From now on the instance answers 503, so a load balancer stops sending it visitors. */
export function markShuttingDown(): void {
  state.shuttingDown = true;
}

/** The migrations this version ships: the folders of prisma/migrations. */
export function shippedMigrations(directory = path.join(process.cwd(), "prisma", "migrations")): string[] {
  // Read at run time from the project the server runs in; nothing for the bundler to trace.
  return readdirSync(/*turbopackIgnore: true*/ directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

type Health = {
  /** "degraded": the database answers but cannot store anything (the disk is full, read-only, failing). */
  status: "ok" | "unavailable" | "degraded";
  /** "busy": it did not answer within the deadline (locked, stalled); "unreachable": it failed (cannot be opened, restarting); "cannot_write": see degraded. */
  database: "ok" | "busy" | "unreachable" | "cannot_write";
  migrations?: { applied: number; shipped: number; pending: string[]; unknown: string[] };
  problems: string[];
};

/** Less free space than this on the disk holding the embedded database counts as full: a batch of sign-ups, its log and a checkpoint need room. */
const LOW_DISK_BYTES = 1024 * 1024;

/**
 * Why the database cannot take writes, if it cannot: the disk holding the file is full or
 * read-only (asked of the file system on every check, so it shows before a visitor meets it), or
 * the site's own writes were refused lately (an I/O error, a damaged file: lib/db/write-state.ts).
 */
export async function writeProblem(databaseFile: string | undefined): Promise<string | null> {
  if (databaseFile) {
    try {
      const disk = await statfs(/*turbopackIgnore: true*/ path.dirname(databaseFile));
      const free = disk.bavail * disk.bsize;
      if (free < LOW_DISK_BYTES) return `the disk holding the database is full (${Math.floor(free / 1024)} KiB free)`;
    } catch {
      // A file system that cannot say: the writes themselves will.
    }
    try {
      await access(/*turbopackIgnore: true*/ databaseFile, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EROFS") return "the database's file system is read-only";
      if (code === "EACCES" || code === "EPERM") return "the database file cannot be written by the site's user";
    }
  }
  return recentWriteFailure();
}

export async function checkHealth(
  database: () => Database = getDatabase,
  shipped: string[] = shippedMigrations(),
  deadlineMs = HEALTH_DEADLINE_MS,
  databaseFile: string | undefined = databaseSettings(parseEnv()).file,
): Promise<Health> {
  const problems: string[] = [];
  if (state.shuttingDown) problems.push("shutting down");
  let applied: string[];
  try {
    const query = database().$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    // The query goes on if it is late (the connection has its own deadline); the answer does not wait for it.
    const rows = await within(query, deadlineMs);
    if (rows === LATE) {
      log.warn({ fault: "database_busy", deadline_ms: deadlineMs }, "health check: the database did not answer in time");
      return {
        status: "unavailable",
        database: "busy",
        problems: [...problems, `the database did not answer within ${deadlineMs} ms (locked or stalled)`],
      };
    }
    applied = rows.map((row) => row.migration_name).sort();
  } catch (error) {
    const kind = temporaryKind(error) ?? "database_unavailable";
    log.error({ fault: kind, ...errorFields(error) }, "health check: the database failed");
    const reason =
      kind === "database_open_failed"
        ? "the database file cannot be opened"
        : kind === "database_busy"
          ? "the database is locked"
          : "the database did not answer";
    return { status: "unavailable", database: "unreachable", problems: [...problems, reason] };
  }
  const pending = shipped.filter((name) => !applied.includes(name));
  const unknown = applied.filter((name) => !shipped.includes(name));
  if (pending.length > 0) problems.push(`${pending.length} migration(s) not applied: run npm run db:migrate`);
  const cannotWrite = await writeProblem(databaseFile);
  if (cannotWrite) {
    log.error({ fault: "database_unavailable", reason: cannotWrite }, "health check: the database cannot take writes");
    return {
      status: "degraded",
      database: "cannot_write",
      migrations: { applied: applied.length, shipped: shipped.length, pending, unknown },
      problems: [...problems, cannotWrite],
    };
  }
  return {
    status: problems.length === 0 ? "ok" : "unavailable",
    database: "ok",
    migrations: { applied: applied.length, shipped: shipped.length, pending, unknown },
    problems,
  };
}

/**
 * Refusals by the mail system that are a sending problem (a burst of one code in the last hour:
 * lib/waitlist/bounces.ts), or none; asked only of a database that just answered, within the deadline.
 */
async function mailRefusals(database: () => Database, deadlineMs = HEALTH_DEADLINE_MS): Promise<{ code: string; messages: number }[]> {
  try {
    const problems = await within(sendingProblems(database()), deadlineMs);
    return problems === LATE ? [] : problems;
  } catch {
    return []; // the database's own state is reported above; this is a report, not a check
  }
}

export async function handleHealth(): Promise<Response> {
  const health = await checkHealth();
  // Backups and mail are reported, not judged: a failing one is the operator's to fix, the instance still serves.
  const backups = backupHealth();
  const refused = health.database === "ok" ? await mailRefusals(getDatabase) : [];
  return json(health.status === "ok" ? 200 : 503, {
    ...health,
    ...(backups ? { backups } : {}),
    ...(refused.length > 0 ? { mail: { status: "refused", refused } } : {}),
  });
}
