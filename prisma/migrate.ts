/**
 * Applies prisma/migrations with `prisma migrate deploy` to the database the
 * environment names (docs/deployment.md). For a file it first creates the
 * directory, and afterwards switches the file to WAL journal mode.
 * Run by `npm run db:migrate`, and before `npm start` and `npm run dev`.
 * Needs the generated client (`npm run db:generate`), as the site does.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import nextEnv from "@next/env";
import { createDatabase, enableWal } from "../lib/db";
import { databaseSettings, parseEnv } from "../lib/env";

nextEnv.loadEnvConfig(process.cwd());
const settings = databaseSettings(parseEnv());
// A database made here is its owner's alone (0600, in a 0700 folder if the folder is new too):
// it holds every entry and the operators' sessions. SQLite gives its journal files the same mode.
const creating = settings.file !== undefined && !existsSync(settings.file);
if (settings.file) mkdirSync(path.dirname(settings.file), { recursive: true, mode: 0o700 });

try {
  execFileSync(path.join("node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
    stdio: "inherit",
    env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
} catch {
  // Prisma has printed what went wrong above; a stack trace of this script would add nothing.
  const where = settings.driver === "libsql" && !settings.file ? ` at ${settings.url} (is it reachable, and is DATABASE_AUTH_TOKEN right?)` : "";
  console.error(`Applying the migrations failed${where}; Prisma's message is above.`);
  process.exit(1);
}
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
