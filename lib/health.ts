/**
 * GET /api/health: whether this instance can take sign-ups, for load balancers,
 * process managers and uptime checks (docs/deployment.md). 200 when the database
 * answers and has every migration this version ships; 503 when it does not
 * answer, when a migration is pending, or while the instance shuts down. Never
 * cached, and answered within HEALTH_DEADLINE_MS whatever the database does: a
 * database that does not answer in time is a 503 with the reason. Migrations
 * the database has and this version does not ship (a newer
 * version migrated it during a rolling upgrade) are listed, not fatal: this
 * project's migrations only add. The answer names problems, not their details: those
 * go to the server's log.
 */
import "server-only";
import { readdirSync } from "node:fs";
import path from "node:path";
import { backupHealth } from "./backup/schedule";
import { getDatabase, temporaryKind, type Database } from "./db";
import { json } from "./http";
import { errorFields, log } from "./log";
import { singleton } from "./singleton";

/** The longest the database gets to answer a health check; the answer goes out well within 2 s. */
export const HEALTH_DEADLINE_MS = 1_500;

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

export type Health = {
  status: "ok" | "unavailable";
  /** "busy": it did not answer within the deadline (locked, stalled); "unreachable": it failed (cannot be opened, restarting). */
  database: "ok" | "busy" | "unreachable";
  migrations?: { applied: number; shipped: number; pending: string[]; unknown: string[] };
  problems: string[];
};

const TIMED_OUT = Symbol("timed out");

export async function checkHealth(
  database: () => Database = getDatabase,
  shipped: string[] = shippedMigrations(),
  deadlineMs = HEALTH_DEADLINE_MS,
): Promise<Health> {
  const problems: string[] = [];
  if (state.shuttingDown) problems.push("shutting down");
  let applied: string[];
  let timer: NodeJS.Timeout | undefined;
  try {
    const query = database().$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    // The query goes on if it is late (the connection has its own deadline); the answer does not wait for it.
    const rows = await Promise.race([query, new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), deadlineMs)))]);
    if (rows === TIMED_OUT) {
      log.warn({ fault: "database_busy", deadline_ms: deadlineMs }, "health check: the database did not answer in time");
      return { status: "unavailable", database: "busy", problems: [...problems, `the database did not answer within ${deadlineMs} ms (locked or stalled)`] };
    }
    applied = rows.map((row) => row.migration_name).sort();
  } catch (error) {
    const kind = temporaryKind(error) ?? "database_unavailable";
    log.error({ fault: kind, ...errorFields(error) }, "health check: the database failed");
    const reason =
      kind === "database_open_failed" ? "the database file cannot be opened" : kind === "database_busy" ? "the database is locked" : "the database did not answer";
    return { status: "unavailable", database: "unreachable", problems: [...problems, reason] };
  } finally {
    clearTimeout(timer);
  }
  const pending = shipped.filter((name) => !applied.includes(name));
  const unknown = applied.filter((name) => !shipped.includes(name));
  if (pending.length > 0) problems.push(`${pending.length} migration(s) not applied: run npm run db:migrate`);
  return {
    status: problems.length === 0 ? "ok" : "unavailable",
    database: "ok",
    migrations: { applied: applied.length, shipped: shipped.length, pending, unknown },
    problems,
  };
}

export async function handleHealth(): Promise<Response> {
  const health = await checkHealth();
  // Backups are reported, not judged: a failing one is the operator's to fix, the instance still serves.
  const backups = backupHealth();
  return json(health.status === "ok" ? 200 : 503, backups ? { ...health, backups } : health);
}
