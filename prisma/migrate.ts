/**
 * Creates the SQLite file if needed, applies prisma/migrations with
 * `prisma migrate deploy`, and switches the file to WAL journal mode.
 * Run by `npm run db:migrate`, and before `npm start` and `npm run dev`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import nextEnv from "@next/env";
import { databaseFileFromUrl, parseEnv } from "../lib/env";
import { enableWal } from "../lib/sqlite";

nextEnv.loadEnvConfig(process.cwd());
const databaseFile = databaseFileFromUrl(parseEnv().DATABASE_URL);
mkdirSync(path.dirname(databaseFile), { recursive: true });

execFileSync(path.join("node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
  stdio: "inherit",
  env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
enableWal(databaseFile);
console.log(`Database ready: ${path.relative(process.cwd(), databaseFile) || databaseFile}`);
