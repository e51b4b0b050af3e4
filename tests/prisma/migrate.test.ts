/**
 * `npm run db:migrate` (prisma/migrate.ts), which every `npm start` runs: on a database that has
 * every shipped migration it does not start Prisma's CLI (a second or two, and its warning); on
 * one that lacks any, it does.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, readdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, inject, it } from "vitest";

function migrate(file: string) {
  const run = spawnSync(process.execPath, ["--import", "tsx", "prisma/migrate.ts"], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: `file:${file}` },
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

function copyOfTemplate(name: string): string {
  const file = path.join(path.dirname(inject("templateDatabase")), `${name}-${crypto.randomUUID()}.db`);
  copyFileSync(inject("templateDatabase"), file);
  return file;
}

const PRISMA_CLI_RAN = /Prisma schema loaded from prisma[/\\]schema\.prisma/;

describe("npm run db:migrate", () => {
  it("on a database with every migration: ready, without starting Prisma's CLI", () => {
    const run = migrate(copyOfTemplate("current"));
    expect(run.status, run.output).toBe(0);
    expect(run.output).toMatch(/Database ready: .*current-.*\.db \((better-sqlite3|libsql)\)/);
    expect(run.output).not.toMatch(PRISMA_CLI_RAN);
  });

  it("on a database that lacks a shipped migration: Prisma's CLI is started to apply it", () => {
    const file = copyOfTemplate("behind");
    const latest = readdirSync(path.join("prisma", "migrations"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
      .at(-1)!;
    const db = new Database(file);
    // The record goes, the tables stay: Prisma runs and finds the migration's changes already made.
    expect(db.prepare("DELETE FROM _prisma_migrations WHERE migration_name = ?").run(latest).changes).toBe(1);
    db.close();
    const run = migrate(file);
    expect(run.output).toMatch(PRISMA_CLI_RAN);
    expect(run.output).toContain(latest);
  });
});
