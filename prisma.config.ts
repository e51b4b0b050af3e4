import nextEnv from "@next/env";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { defineConfig } from "prisma/config";
import { databaseSettings, parseEnv } from "./lib/env";

// Read .env files the way Next.js does, so the CLI and the site open one database.
nextEnv.loadEnvConfig(process.cwd());
const env = parseEnv();
const settings = databaseSettings(env);
// The schema's `env("DATABASE_URL")` must resolve to a SQLite file URL, or the CLI
// falls back to downloading a native engine (which fails on our machines). The
// driver adapter below is what connects; for a libSQL server the schema's url is
// only a placeholder it never opens.
process.env.DATABASE_URL = settings.file ? env.DATABASE_URL : "file:./prisma/data/unused-with-libsql-server.db";

// Prisma 6.19's WebAssembly schema engine: the native one is a download that
// cannot happen on our machines (see docs/architecture.md). Migrations go
// through the same driver adapter as the site: better-sqlite3 for a file,
// libSQL for a Turso or libSQL server (docs/deployment.md). (Not lib/db/'s
// driverAdapter: that module needs the generated client, which this file's
// `prisma generate` is what makes.)
export default defineConfig({
  engine: "js",
  experimental: { adapter: true },
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  async adapter() {
    return settings.driver === "libsql"
      ? new PrismaLibSQL({ url: settings.url, authToken: settings.authToken })
      : new PrismaBetterSQLite3({ url: settings.file });
  },
});
