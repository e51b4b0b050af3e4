/**
 * Confirmation emails from the production server (server.ts) to a real SMTP
 * server on loopback: none lost when the mail server is down at sign-up, or
 * when the site is killed with emails waiting; none sent twice.
 * Needs a build (`npm run build`; `npm run test:instances` makes one).
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BENCH_SECRET, ensureBuild, freshDatabase, startSiteServer, type SiteServer } from "@/bench/support/site-server";
import { startMailCatcher } from "@/e2e/support/mail-catcher";
import { createDatabase, type Database } from "@/lib/db";
import { solve } from "@/lib/waitlist/challenge";
import { issueChallenge } from "@/lib/waitlist/challenge-token";
import { VALID_SIGNUP } from "../fixtures/signup";

const SMTP_PORT = 2591;
const mailDir = path.resolve(".tmp", "servers-mail-inbox");

let databaseFile: string;
let database: Database;
let catcher: SMTPServer | undefined;
const servers: SiteServer[] = [];

/**
 * How long a sign-up's first attempt may take to be made and fail: the sending thread runs at
 * niceness 19, and beside other work (the test lanes) its first attempts can take tens of seconds.
 */
const FIRST_ATTEMPTS_MS = 60_000;

const serverEnv = {
  WAITLIST_SECRET: BENCH_SECRET,
  WAITLIST_MIN_SUBMIT_MS: "0",
  WAITLIST_RATE_LIMIT_MAX: "1000",
  SITE_URL: "http://127.0.0.1:3255",
  SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
  MAIL_FROM: "FieldCrew <hello@fieldcrew.app>",
  WAITLIST_DELIVERY_RETRY_SECONDS: Array(40).fill("0.5").join(","),
  WAITLIST_DELIVERY_LEASE_SECONDS: "3",
};

async function startServer(): Promise<SiteServer> {
  const server = await startSiteServer({ port: 3255, databaseFile, env: serverEnv });
  servers.push(server);
  return server;
}

async function startCatcher(): Promise<void> {
  catcher = await startMailCatcher({ port: SMTP_PORT, dir: mailDir });
}

async function stopCatcher(): Promise<void> {
  await new Promise<void>((resolve) => (catcher ? catcher.close(() => resolve()) : resolve()));
  catcher = undefined;
}

/** How many messages the SMTP server kept for each address. */
function mailsPerAddress(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of readdirSync(mailDir).filter((name) => name.endsWith(".eml"))) {
    const to =
      /^To: (.+)$/m
        .exec(readFileSync(path.join(mailDir, file), "utf8"))?.[1]
        ?.trim()
        .toLowerCase() ?? "?";
    counts.set(to, (counts.get(to) ?? 0) + 1);
  }
  return counts;
}

async function signUp(server: SiteServer, email: string): Promise<number> {
  const challenge = issueChallenge(BENCH_SECRET, Date.now());
  const response = await fetch(`${server.url}/api/waitlist`, {
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

const emailRows = () => database.outboxMessage.findMany({ where: { kind: "email" } });

beforeAll(() => {
  ensureBuild();
  databaseFile = freshDatabase("servers-mail");
  database = createDatabase({ driver: "better-sqlite3", file: databaseFile });
}, 180_000);

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  await stopCatcher();
});

afterAll(async () => {
  await database?.$disconnect();
});

describe("confirmation emails from the production server", () => {
  it("arrive once when the mail server was down at sign-up and comes up later", async () => {
    rmSync(mailDir, { recursive: true, force: true });
    const server = await startServer(); // nothing listens on the SMTP port yet
    const email = `down.then.up.${Date.now()}@example.com`;
    expect(await signUp(server, email)).toBe(201);
    await expect
      .poll(async () => (await emailRows()).find((row) => row.attempts >= 1 && row.lastError !== null)?.status, {
        timeout: FIRST_ATTEMPTS_MS,
      })
      .toBe("pending");

    await startCatcher();
    await expect.poll(() => mailsPerAddress().get(email), { timeout: 20_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // long enough for a second attempt, were one due
    expect(mailsPerAddress().get(email)).toBe(1);
    expect((await emailRows()).every((row) => row.status === "delivered")).toBe(true);
  }, 120_000);

  it("arrive once each after the site is killed with emails waiting and started again", async () => {
    rmSync(mailDir, { recursive: true, force: true });
    await startCatcher();
    writeFileSync(path.join(mailDir, "down"), ""); // the mail server answers "try again later"
    await database.outboxMessage.updateMany({ data: { status: "delivered" } });
    let server = await startServer();
    const emails = Array.from({ length: 5 }, (_, i) => `killed.${Date.now()}.${i}@example.com`);
    for (const email of emails) expect(await signUp(server, email)).toBe(201);
    await expect
      .poll(
        () => database.outboxMessage.count({ where: { kind: "email", status: "pending", attempts: { gte: 1 }, lastError: { not: null } } }),
        { timeout: FIRST_ATTEMPTS_MS },
      )
      .toBe(5);

    server.child.kill("SIGKILL");
    await new Promise((resolve) => server.child.once("exit", resolve));
    rmSync(path.join(mailDir, "down"));
    server = await startServer();

    await expect.poll(() => emails.map((email) => mailsPerAddress().get(email) ?? 0), { timeout: 30_000 }).toEqual([1, 1, 1, 1, 1]);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(emails.map((email) => mailsPerAddress().get(email))).toEqual([1, 1, 1, 1, 1]);
  }, 150_000);
});
