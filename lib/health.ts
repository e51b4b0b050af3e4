/**
 * GET /api/health: whether this instance can take sign-ups, for load balancers,
 * process managers and uptime checks (docs/deployment.md). 200 when the database
 * answers and has every migration this version ships; 503 when it does not
 * answer, when a migration is pending, or while the instance shuts down. Never
 * cached. Migrations the database has and this version does not ship (a newer
 * version migrated it during a rolling upgrade) are listed, not fatal: this
 * project's migrations only add. The answer names problems, not their details: those
 * go to the server's log.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { getDatabase, type Database } from "./db";

// Kept on globalThis: server.ts sets it, the health route (its own bundle) reads it.
const state = globalThis as unknown as { waitlistShuttingDown?: boolean };

/** From now on the instance answers 503, so a load balancer stops sending it visitors. */
export function markShuttingDown(): void {
  state.waitlistShuttingDown = true;
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
  database: "ok" | "unreachable";
  migrations?: { applied: number; shipped: number; pending: string[]; unknown: string[] };
  problems: string[];
};

export async function checkHealth(database: () => Database = getDatabase, shipped: string[] = shippedMigrations()): Promise<Health> {
  const problems: string[] = [];
  if (state.waitlistShuttingDown) problems.push("shutting down");
  let applied: string[];
  try {
    const rows = await database().$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    applied = rows.map((row) => row.migration_name).sort();
  } catch (error) {
    console.error(`[health] the database did not answer: ${error instanceof Error ? error.message : String(error)}`);
    return { status: "unavailable", database: "unreachable", problems: [...problems, "the database did not answer"] };
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
  return Response.json(health, { status: health.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
