/**
 * Applies prisma/migrations with `prisma migrate deploy` to the database the
 * environment names (docs/deployment.md), unless a file has applied every one
 * already (then Prisma's CLI is not started). For a file it first creates the
 * directory, and afterwards switches the file to WAL journal mode.
 * Run by `npm run db:migrate`, and before `npm start` and `npm run dev`.
 * Needs the generated client (`npm run db:generate`), as the site does.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import nextEnv from "@next/env";
import { createDatabase, enableWal } from "../lib/db";
import { databaseSettings, parseEnvOrExit, type DatabaseSettings } from "../lib/env";

/** The migrations prisma/migrations ships, and those the database has applied (none for a new database). */
async function migrationsOf(settings: DatabaseSettings): Promise<{ shipped: string[]; applied: Set<string> }> {
  const shipped = readdirSync(path.join("prisma", "migrations"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const database = createDatabase(settings);
  try {
    const [table] = await database.$queryRaw<unknown[]>`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`;
    if (!table) return { shipped, applied: new Set() };
    const applied = await database.$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    return { shipped, applied: new Set(applied.map((row) => row.migration_name)) };
  } finally {
    await database.$disconnect();
  }
}

/** `prisma migrate deploy`, or the process ends with one sentence after Prisma's own message. */
function applyMigrations(): void {
  try {
    execFileSync(path.join("node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
      stdio: "inherit",
      env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    });
  } catch {
    // Prisma has printed what went wrong above; a stack trace of this script would add nothing.
    const where =
      settings.driver === "libsql" && !settings.file ? ` at ${settings.url} (is it reachable, and is DATABASE_AUTH_TOKEN right?)` : "";
    console.error(`Applying the migrations failed${where}; Prisma's message is above.`);
    process.exit(1);
  }
}

nextEnv.loadEnvConfig(process.cwd());
const settings = databaseSettings(parseEnvOrExit());
// A database made here is its owner's alone (0600, in a 0700 folder if the folder is new too):
// it holds every entry and the operators' sessions. SQLite gives its journal files the same mode.
const creating = settings.file !== undefined && !existsSync(settings.file);
if (settings.file) mkdirSync(path.dirname(settings.file), { recursive: true, mode: 0o700 });

// Nothing to apply (the usual start): Prisma's CLI is not started, which saves a second or two
// and its warning about the schema's url (kept on purpose: see docs/architecture.md).
let upToDate = false;
if (settings.file && !creating) {
  const { shipped, applied } = await migrationsOf(settings);
  // A database a newer version of the site migrated: this version does not know its tables' shape.
  const unknown = [...applied].filter((name) => !shipped.includes(name)).sort();
  upToDate = shipped.every((name) => applied.has(name));
  if (unknown.length > 0) {
    console.error(
      `The database at ${path.relative(process.cwd(), settings.file) || settings.file} was made by a newer version of the site (it has ${unknown.length === 1 ? "a migration" : "migrations"} this checkout does not: ${unknown.join(", ")}): update this checkout (git pull), or point DATABASE_URL at another database.`,
    );
    process.exit(1);
  }
}

if (!upToDate) applyMigrations();
if (settings.file) {
  if (creating) chmodSync(settings.file, 0o600);
  const database = createDatabase(settings);
  try {
    await enableWal(database);
  } finally {
    await database.$disconnect();
  }
}
const where = settings.file ? path.relative(process.cwd(), settings.file) || settings.file : settings.driver === "libsql" && settings.url;
console.log(`Database ready: ${where} (${settings.driver})`);
