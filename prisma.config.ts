import nextEnv from "@next/env";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";
import { databaseFileFromUrl, parseEnv } from "./lib/env";

// Read .env files the way Next.js does, so the CLI and the site open one database.
nextEnv.loadEnvConfig(process.cwd());
const { DATABASE_URL } = parseEnv();
const databaseFile = databaseFileFromUrl(DATABASE_URL);
// The schema's `env("DATABASE_URL")` must resolve, or the CLI falls back to
// downloading a native engine; give it the same default the site uses.
process.env.DATABASE_URL = DATABASE_URL;

// Prisma 6.19's WebAssembly schema engine: the native one is a download that
// cannot happen on our machines (see docs/architecture.md).
export default defineConfig({
  engine: "js",
  experimental: { adapter: true },
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  async adapter() {
    return new PrismaBetterSQLite3({ url: databaseFile });
  },
});
