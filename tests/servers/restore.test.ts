/**
 * `npm run waitlist -- restore` against a running production server (server.ts, as `npm start`
 * runs it): refused while the site has the database open, naming the process, with nothing
 * changed; done once the site is stopped. Backups and the copy kept before a restore are the
 * owner's alone. Needs a build (`npm run build`; `npm run test:instances` makes one).
 */
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BENCH_SECRET, ensureBuild, freshDatabase, startSiteServer, type SiteServer } from "@/bench/support/site-server";
import { solve } from "@/lib/waitlist/challenge";
import { issueChallenge } from "@/lib/waitlist/challenge-token";
import { VALID_SIGNUP } from "../fixtures/signup";

const PORT = 3291;
let databaseFile: string;
let server: SiteServer | undefined;

function waitlist(args: string[]) {
  return spawnSync(process.execPath, ["scripts/waitlist.mjs", ...args], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: `file:${databaseFile}` },
  });
}

async function signUp(email: string): Promise<number> {
  const challenge = issueChallenge(BENCH_SECRET, Date.now());
  const response = await fetch(`${server!.url}/api/waitlist`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      ...VALID_SIGNUP,
      email,
      challenge_token: challenge.token,
      challenge_answer: String(solve(challenge.challenge)),
    }),
  });
  return response.status;
}

/** The addresses in the file, read with SQLite itself (and closed at once). */
function emails(): string[] {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT email FROM waitlist_entries ORDER BY id").pluck().all() as string[];
  } finally {
    db.close();
  }
}

const modeOf = (file: string) => statSync(file).mode & 0o777;

beforeAll(async () => {
  ensureBuild();
  databaseFile = freshDatabase("servers-restore");
  server = await startSiteServer({ port: PORT, databaseFile, env: { WAITLIST_SECRET: BENCH_SECRET, WAITLIST_MIN_SUBMIT_MS: "0" } });
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

describe("restore while the site runs", () => {
  it("is refused, names the server's process, and changes nothing; after the site stops it goes ahead", async () => {
    // The database the site's first start made is private, as are its write-ahead log and shared memory.
    expect(modeOf(databaseFile)).toBe(0o600);
    expect(await signUp("kept@restore.example")).toBe(201);
    const backup = path.join(path.dirname(databaseFile), "before-the-second.db");
    const made = waitlist(["backup", backup]);
    expect(made.status, made.stderr).toBe(0);
    expect(modeOf(backup)).toBe(0o600);
    expect(await signUp("acknowledged@restore.example")).toBe(201);

    const refused = waitlist(["restore", backup, "--yes"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("is open in another process");
    expect(refused.stderr).toContain(`pid ${server!.pid} `);
    expect(refused.stderr).toContain("Stop every instance of the site");
    expect(refused.stderr).toContain("Nothing was changed.");
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    // The acknowledged sign-up is still there, no copy was made, and the site still answers.
    expect(emails()).toEqual(["kept@restore.example", "acknowledged@restore.example"]);
    expect(readdirSync(path.dirname(databaseFile)).filter((name) => name.includes("before-restore"))).toEqual([]);
    expect((await fetch(`${server!.url}/api/health`)).status).toBe(200);
    expect(await signUp("after-refusal@restore.example")).toBe(201);

    // Without --yes it does not even ask.
    const unasked = spawnSync(process.execPath, ["scripts/waitlist.mjs", "restore", backup], {
      encoding: "utf8",
      input: "yes\n",
      env: { ...process.env, DATABASE_URL: `file:${databaseFile}` },
    });
    expect(unasked.status).toBe(1);
    expect(unasked.stdout).not.toContain("Type yes");

    await server!.stop();
    server = undefined;
    const restored = waitlist(["restore", backup, "--yes"]);
    expect(restored.status, restored.stderr).toBe(0);
    expect(emails()).toEqual(["kept@restore.example"]);
    const savedAs = /kept in (.*)\.\n$/.exec(restored.stdout)![1]!;
    expect(modeOf(savedAs)).toBe(0o600);
  });
});
