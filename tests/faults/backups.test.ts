/**
 * Scheduled backups in the production server (server.ts on a build): made while
 * it takes sign-ups, shown on /api/health, and a failing one logged and shown
 * there too, without the instance turning unhealthy.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureBuild, freshDatabase, LOAD_TEST_ENV, startSiteServer, type SiteServer } from "@/bench/support/site-server";
import { healthOf, signUpOnce, sleep } from "./support";

let server: SiteServer;
let backupDir: string;

beforeAll(async () => {
  ensureBuild();
  const databaseFile = freshDatabase("faults-backups");
  backupDir = path.join(path.dirname(databaseFile), "backups");
  mkdirSync(backupDir);
  // Every minute: the first look comes 4 to 15 s after the start, then one every 15 s.
  server = await startSiteServer({
    port: 3266,
    databaseFile,
    output: true,
    env: { ...LOAD_TEST_ENV, WAITLIST_BACKUP_DIR: backupDir, WAITLIST_BACKUP_INTERVAL_MINUTES: "1", WAITLIST_BACKUP_KEEP: "2" },
  });
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

type Backups = { status: string; every_minutes: number; newest_at: string | null; last_failure_at: string | null };
const backupsOf = async () => (await healthOf(server.url)).body.backups as Backups;

it("makes a backup while sign-ups come in, holding those acknowledged before it, and says so on /api/health", async () => {
  expect((await backupsOf()).status).toBe("starting");
  const acknowledged: string[] = [];
  while (readdirSync(backupDir).filter((name) => name.endsWith(".db")).length === 0) {
    const answer = await signUpOnce(server.url, "198.51.100.7", "scheduled");
    if (answer.status === 201) acknowledged.push(answer.email);
    await sleep(100);
  }
  const [file] = readdirSync(backupDir).filter((name) => name.endsWith(".db"));
  expect(file).toMatch(/^waitlist-\d{8}T\d{6}Z\.db$/);
  const backup = new BetterSqlite3(path.join(backupDir, file!), { readonly: true });
  const stored = new Set(backup.prepare("SELECT email FROM waitlist_entries").pluck().all() as string[]);
  backup.close();
  // Every sign-up answered before the file appeared, but the last few (in flight while it was made).
  expect(acknowledged.length).toBeGreaterThan(5);
  for (const email of acknowledged.slice(0, -5)) expect(stored.has(email), email).toBe(true);

  await expect.poll(async () => (await backupsOf()).status).toBe("ok");
  const health = await healthOf(server.url);
  expect(health.status).toBe(200);
  expect(health.body.backups).toMatchObject({ status: "ok", every_minutes: 1, newest_at: expect.any(String), last_failure_at: null });
  expect(server.output()).toMatch(/"msg":"scheduled backup made"/);
}, 60_000);

it("a failing backup is logged and shown on /api/health; the instance stays healthy and takes sign-ups", async () => {
  // The folder replaced by a file: the next look fails.
  rmSync(backupDir, { recursive: true });
  writeFileSync(backupDir, "not a folder");
  await expect.poll(async () => (await backupsOf()).status, { timeout: 30_000, interval: 500 }).toBe("failing");
  const health = await healthOf(server.url);
  expect(health.status).toBe(200);
  const backups = health.body.backups as Backups;
  expect(backups.last_failure_at).toEqual(expect.any(String));
  // What failed, with the path, is for the log only: the answer is public.
  expect(JSON.stringify(health.body)).not.toContain(backupDir);
  expect(server.output()).toMatch(/"fault":"backup_failed"/);
  expect((await signUpOnce(server.url, "198.51.100.8", "while-failing")).status).toBe(201);

  // Fixed: the next look succeeds.
  rmSync(backupDir);
  mkdirSync(backupDir);
  await expect.poll(async () => (await backupsOf()).status, { timeout: 30_000, interval: 500 }).toBe("ok");
}, 90_000);
