/**
 * Creates the SQLite file if needed, applies prisma/migrations with
 * `prisma migrate deploy`, and switches the file to WAL journal mode.
 * Run by `npm run db:migrate`, and before `npm start` and `npm run dev`.
 * Needs the generated client (`npm run db:generate`), as the site does.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import nextEnv from "@next/env";
import { createDatabase, enableWal } from "../lib/db";
import { databaseFileFromUrl, parseEnv } from "../lib/env";

nextEnv.loadEnvConfig(process.cwd());
const { DATABASE_URL } = parseEnv();
const databaseFile = databaseFileFromUrl(DATABASE_URL);
mkdirSync(path.dirname(databaseFile), { recursive: true });

execFileSync(path.join("node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
  stdio: "inherit",
  env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
const database = createDatabase(DATABASE_URL);
try {
  await enableWal(database);
} finally {
  await database.$disconnect();
}
console.log(`Database ready: ${path.relative(process.cwd(), databaseFile) || databaseFile}`);
