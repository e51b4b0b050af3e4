/**
 * Backups of the embedded database and the restore drill: the real route
 * handler takes sign-ups into a real migrated SQLite file (with each driver),
 * backups are made while it writes, and a restore brings back every
 * acknowledged sign-up up to the backup. The operator commands run as the real
 * command (node scripts/waitlist.mjs).
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import * as route from "@/app/api/waitlist/route";
import { BackupProblem, backUpDatabase, checkBackup, DatabaseInUse, restoreDatabase } from "@/lib/backup/backup";
import { backUpIfDue } from "@/lib/backup/schedule";
import { closeDatabase, getDatabase } from "@/lib/db";
import { parseEnv } from "@/lib/env";
import { setUpTestDatabase } from "../support/database";
import { jsonRequest, signupBody } from "../support/requests";
import { waitlistCommand, waitlistProcess } from "../support/waitlist-command";

const { file } = setUpTestDatabase();
const workDir = path.join(path.dirname(file), `backups-${crypto.randomUUID()}`);
mkdirSync(workDir);

/** Signs up through the route handler; the address, if the answer was 201 (acknowledged). */
async function signUp(tag: string): Promise<string | null> {
  const email = `${tag}.${crypto.randomUUID().slice(0, 8)}@backup.example`;
  const response = await route.POST(jsonRequest(signupBody({ email })));
  return response.status === 201 ? email : null;
}

/** The addresses in a database file, read with SQLite itself. */
function emailsIn(databaseFile: string): Set<string> {
  const db = new BetterSqlite3(databaseFile, { readonly: true, fileMustExist: true });
  try {
    return new Set(db.prepare("SELECT email FROM waitlist_entries").pluck().all() as string[]);
  } finally {
    db.close();
  }
}

async function liveEmails(): Promise<Set<string>> {
  const rows = await getDatabase().$queryRaw<{ email: string }[]>`SELECT email FROM waitlist_entries`;
  return new Set(rows.map((row) => row.email));
}

/** The operator tool in this process (tests/support/waitlist-command.ts), on the test's database. */
function waitlist(args: string[]) {
  return waitlistCommand(args, { env: { DATABASE_URL: `file:${file}` } });
}

/**
 * The operator tool as a process of its own, where a restore must get past its check that no
 * other process has the database open: this test's process counts as one when it does.
 */
function waitlistAlone(args: string[], input = "") {
  return waitlistProcess(args, { input, env: { DATABASE_URL: `file:${file}` } });
}

describe("a backup while the site takes sign-ups", () => {
  it("holds every sign-up acknowledged before it began, passes SQLite's integrity check, and is one file", async () => {
    const before: string[] = [];
    for (let index = 0; index < 20; index += 1) before.push((await signUp("before"))!);
    expect(before.every(Boolean)).toBe(true);

    // Sign-ups keep coming while the backup is made.
    let writing = true;
    const during = (async () => {
      const emails: string[] = [];
      while (writing) emails.push((await signUp("during"))!);
      return emails;
    })();
    const target = path.join(workDir, "while-writing.db");
    const result = await backUpDatabase(file, target);
    writing = false;
    const duringEmails = await during;
    expect(duringEmails.length).toBeGreaterThan(0);

    const inBackup = emailsIn(target);
    for (const email of before) expect(inBackup.has(email), email).toBe(true);
    expect(result.entries).toBe(inBackup.size);
    expect(inBackup.size).toBeGreaterThanOrEqual(before.length);
    expect(await checkBackup(target)).toBe(inBackup.size);
    // Self-contained: no write-ahead log or shared memory beside it, no half-made copy left.
    expect(readdirSync(workDir).filter((name) => name.startsWith("while-writing"))).toEqual(["while-writing.db"]);
  });

  it("npm run waitlist -- backup FILE: makes it, says how many, and will not overwrite a file without --force", async () => {
    await signUp("cli");
    const target = path.join(workDir, "cli.db");
    const first = await waitlist(["backup", target]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^Backed up 1 sign-up to .*cli\.db \([\d.]+ MB, \d+ ms\); integrity checked\.\n$/);

    const again = await waitlist(["backup", target]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already exists\. Name another file, or pass --force/);
    expect((await waitlist(["backup", target, "--force"])).status).toBe(0);

    const nowhere = await waitlist(["backup", path.join(workDir, "no-such-folder", "x.db")]);
    expect(nowhere.status).toBe(1);
    expect(nowhere.stderr).toMatch(/does not exist/);
    expect((await waitlist(["backup"])).status).toBe(2);
  });
});

describe("the restore drill", () => {
  it("brings back every acknowledged sign-up up to the backup, keeps the database as it was, and the site goes on", async () => {
    const acknowledged: string[] = [];
    for (let index = 0; index < 10; index += 1) acknowledged.push((await signUp("kept"))!);
    const backup = path.join(workDir, "drill.db");
    await backUpDatabase(file, backup);
    const after = (await signUp("after-backup"))!;

    // The disaster: every sign-up deleted.
    await getDatabase().$executeRaw`DELETE FROM waitlist_entries`;
    expect((await liveEmails()).size).toBe(0);

    // While this process (the site, here) has the database open, restore refuses, naming it.
    const refused = waitlistAlone(["restore", backup, "--yes"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`is open in another process: pid ${process.pid} (`);
    await expect(restoreDatabase(backup, file)).rejects.toBeInstanceOf(DatabaseInUse);
    expect(readdirSync(path.dirname(file)).filter((name) => name.includes("before-restore"))).toEqual([]);

    // The site stopped, the restore goes ahead.
    await closeDatabase();
    const run = waitlistAlone(["restore", backup, "--yes"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^Restored 10 sign-ups from .*drill\.db into .*; integrity checked\. The database as it was is kept in .*\.before-restore-\d{8}T\d{6}Z\.\n$/,
    );

    // The site started again sees the restored database.
    const live = await liveEmails();
    for (const email of acknowledged) expect(live.has(email), email).toBe(true);
    expect(live.has(after)).toBe(false);
    // What came after the backup is not lost: it is in the copy kept beside the database (deleted
    // there too, as it was at the moment of the restore, but the file is there to go back to).
    const savedAs = /kept in (.*)\.\n$/.exec(run.stdout)![1]!;
    expect(existsSync(savedAs)).toBe(true);
    // Both the backup and the copy are the owner's alone: they hold every entry.
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    expect(statSync(savedAs).mode & 0o777).toBe(0o600);
    rmSync(savedAs);

    // And the site takes sign-ups on the restored database; a returning address is still one entry.
    const next = (await signUp("after-restore"))!;
    expect((await liveEmails()).has(next)).toBe(true);
    const duplicate = await route.POST(jsonRequest(signupBody({ email: acknowledged[0] })));
    expect(duplicate.status).toBe(409);
  });

  it("asks first, and without a yes restores nothing", async () => {
    const email = (await signUp("unasked"))!;
    const backup = path.join(workDir, "unasked.db");
    await backUpDatabase(file, backup);
    await getDatabase().$executeRaw`DELETE FROM waitlist_entries`;
    await closeDatabase();
    const run = waitlistAlone(["restore", backup], "no\n");
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/Type yes to confirm: \nNothing restored\./);
    expect((await liveEmails()).has(email)).toBe(false);
  });

  it("refuses a file that is not a whole waitlist database, and changes nothing", async () => {
    const email = (await signUp("untouched"))!;
    const notADatabase = path.join(workDir, "notes.txt");
    writeFileSync(notADatabase, "not a database at all, just some text ".repeat(200));
    const otherDatabase = path.join(workDir, "other.db");
    new BetterSqlite3(otherDatabase).exec("CREATE TABLE things (id INTEGER)").close();
    // A real backup with a page overwritten in the middle.
    const damaged = path.join(workDir, "damaged.db");
    await backUpDatabase(file, damaged);
    const bytes = Buffer.alloc(4096, 0x5a);
    const handle = (await import("node:fs/promises")).open(damaged, "r+");
    await (await handle).write(bytes, 0, bytes.length, 4096 * 2);
    await (await handle).close();

    await closeDatabase();
    for (const [bad, why] of [
      [notADatabase, /not a database|file is not a database/i],
      [otherDatabase, /is not a waitlist database \(it has no _prisma_migrations table\)/],
      [damaged, /integrity|malformed|not a database/i],
      [path.join(workDir, "missing.db"), /There is no file at/],
    ] as const) {
      // The backup is checked before anything else: a bad one is refused in any process.
      const run = await waitlist(["restore", bad, "--yes"]);
      expect(run.status, bad).toBe(1);
      expect(run.stderr, bad).toMatch(why);
      await expect(restoreDatabase(bad, file)).rejects.toBeInstanceOf(BackupProblem);
    }
    expect((await liveEmails()).has(email)).toBe(true);
    expect(readdirSync(path.dirname(file)).filter((name) => name.includes("before-restore"))).toEqual([]);
  });
});

describe("scheduled backups", () => {
  const schedule = (dir: string) => ({ dir, intervalMinutes: 60, keep: 3, databaseFile: file });

  it("one per interval, named by its time, the newest `keep` kept", async () => {
    const dir = path.join(workDir, "scheduled");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "operator-notes.txt"), "not ours: never deleted");
    const start = new Date("2026-11-25T06:00:00Z");
    const made: string[] = [];
    for (let hour = 0; hour < 5; hour += 1) {
      const now = new Date(start.getTime() + hour * 3_600_000);
      made.push((await backUpIfDue(schedule(dir), now))!);
      // Not due again within the interval.
      expect(await backUpIfDue(schedule(dir), new Date(now.getTime() + 30 * 60_000))).toBeNull();
    }
    expect(made.map((name) => path.basename(name))).toEqual([
      "waitlist-20261125T060000Z.db",
      "waitlist-20261125T070000Z.db",
      "waitlist-20261125T080000Z.db",
      "waitlist-20261125T090000Z.db",
      "waitlist-20261125T100000Z.db",
    ]);
    expect(readdirSync(dir).sort()).toEqual([
      "operator-notes.txt",
      "waitlist-20261125T080000Z.db",
      "waitlist-20261125T090000Z.db",
      "waitlist-20261125T100000Z.db",
    ]);
  });

  it("makes a missing folder for the owner alone (0700), and each backup 0600", async () => {
    const dir = path.join(workDir, "made-by-the-site", "backups");
    const made = (await backUpIfDue(schedule(dir)))!;
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(made).mode & 0o777).toBe(0o600);
  });

  it("skips while another instance holds the folder's lock, and takes over a lock left by a dead one", async () => {
    const dir = path.join(workDir, "locked");
    mkdirSync(dir);
    const lock = path.join(dir, ".backup-in-progress");
    writeFileSync(lock, "");
    expect(await backUpIfDue(schedule(dir))).toBeNull();
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(lock, twoHoursAgo, twoHoursAgo);
    expect(await backUpIfDue(schedule(dir))).toMatch(/waitlist-\d{8}T\d{6}Z\.db$/);
    expect(existsSync(lock)).toBe(false);
  });

  it("a failure throws (the schedule logs it and reports it on /api/health) and leaves no lock or half file", async () => {
    const dir = path.join(workDir, "failing");
    mkdirSync(dir);
    await expect(backUpIfDue({ ...schedule(dir), databaseFile: path.join(workDir, "gone.db") })).rejects.toThrow(/There is no database at/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("the scheduled backups' settings", () => {
  it("default to a day and seven kept, and refuse nonsense and a libSQL server", () => {
    expect(parseEnv({ WAITLIST_BACKUP_DIR: "/var/backups/fieldcrew" })).toMatchObject({
      WAITLIST_BACKUP_DIR: "/var/backups/fieldcrew",
      WAITLIST_BACKUP_INTERVAL_MINUTES: 1440,
      WAITLIST_BACKUP_KEEP: 7,
    });
    expect(() => parseEnv({ WAITLIST_BACKUP_DIR: "/b", WAITLIST_BACKUP_INTERVAL_MINUTES: "0" })).toThrow(
      /WAITLIST_BACKUP_INTERVAL_MINUTES/,
    );
    expect(() => parseEnv({ WAITLIST_BACKUP_DIR: "/b", WAITLIST_BACKUP_KEEP: "none" })).toThrow(
      /WAITLIST_BACKUP_KEEP: must be a whole number/,
    );
    expect(() =>
      parseEnv({ WAITLIST_BACKUP_DIR: "/b", DATABASE_URL: "libsql://waitlist-acme.turso.io", DATABASE_AUTH_TOKEN: "t" }),
    ).toThrow(/WAITLIST_BACKUP_DIR: backs up the embedded SQLite file only/);
  });

  it("npm run waitlist -- backup refuses a libSQL server and says what to use instead", async () => {
    const run = await waitlistCommand(["backup", path.join(workDir, "turso.db")], {
      env: { DATABASE_URL: "libsql://waitlist-acme.turso.io", DATABASE_AUTH_TOKEN: "t", DATABASE_DRIVER: "libsql" },
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/names a libSQL\/Turso server: back it up, and restore it, with Turso's own tools/);
  });
});
