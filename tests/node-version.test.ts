/**
 * What a newcomer meets first, each one sentence with the fix and a non-zero exit, never a stack
 * trace (issue 40): an old Node.js, a database a newer checkout migrated, a variable set wrong in
 * .env, no Chromium for the end-to-end tests. The port already in use is tried on a real server (tests/servers/newcomer.test.ts).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, inject, it } from "vitest";
import { MINIMUM_NODE, nodeVersionProblem } from "@/lib/node-version";

const noStackTrace = (text: string) => expect(text).not.toMatch(/\n\s+at /);

describe("the first things a newcomer meets", () => {
  it("an old Node.js: the version needed and how to get it", () => {
    expect(nodeVersionProblem("18.19.1")).toBe(
      `FieldCrew needs Node.js ${MINIMUM_NODE} or newer, and this is 18.19.1: install a current LTS (https://nodejs.org, or nvm install --lts), then run the command again.`,
    );
    expect(nodeVersionProblem("20.8.9")).toMatch(/and this is 20\.8\.9/);
    for (const fine of ["20.9.0", "20.20.2", "22.1.0", "24.0.0"]) expect(nodeVersionProblem(fine), fine).toBeNull();
    // package.json says the same minimum.
    expect((JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } }).engines.node).toBe(`>=${MINIMUM_NODE}`);
  });

  it("a database a newer checkout migrated: db:migrate (and so npm start) refuses, naming what it does not know", () => {
    const file = path.join(path.dirname(inject("templateDatabase")), `newer-${crypto.randomUUID()}.db`);
    copyFileSync(inject("templateDatabase"), file);
    const db = new Database(file);
    db.prepare(
      "INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES (?, 'x', ?, 0, 0, 1)",
    ).run(crypto.randomUUID(), "20991231000000_from_the_future");
    db.close();
    const run = spawnSync(process.execPath, ["--import", "tsx", "prisma/migrate.ts"], {
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: `file:${file}` },
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toMatch(
      /^The database at .*newer-.*\.db was made by a newer version of the site \(it has a migration this checkout does not: 20991231000000_from_the_future\): update this checkout \(git pull\), or point DATABASE_URL at another database\.$/,
    );
    noStackTrace(run.stderr);
  });

  it("a variable set wrong in .env: the migrations (and so npm start) and the server name it and its fix", () => {
    const env = { ...process.env, WAITLIST_SECRET: "too-short", DATABASE_URL: `file:${inject("templateDatabase")}`, LOG_LEVEL: "info" };
    const problem = "Invalid environment configuration:\n  WAITLIST_SECRET: must be at least 32 characters (try: openssl rand -hex 32)";
    const migrate = spawnSync(process.execPath, ["--import", "tsx", "prisma/migrate.ts"], { encoding: "utf8", env });
    expect(migrate.status).toBe(1);
    expect(migrate.stderr.trim()).toBe(problem);
    // The server says it as its one log line (JSON here: its output is not a terminal).
    const server = spawnSync(process.execPath, ["--import", "tsx", "server.ts", "--port", "3299"], { encoding: "utf8", env });
    expect(server.status).toBe(1);
    const lines = server.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "fatal", msg: problem });
    noStackTrace(server.stdout + server.stderr + migrate.stderr);
  });

  it("no Chromium for the end-to-end tests: says how to install one", () => {
    const run = spawnSync(process.execPath, ["node_modules/@playwright/test/cli.js", "test", "--list"], {
      encoding: "utf8",
      env: { ...process.env, CHROMIUM_PATH: "/nonexistent/chromium", E2E_BASE_URL: "http://127.0.0.1:9" },
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(
      "CHROMIUM_PATH is /nonexistent/chromium, and there is no file there: point it at a Chromium or Chrome, or unset it.",
    );
  });
});
