/**
 * An update to part of the list from two production servers (server.ts) on one database, to a real
 * SMTP server, with one of them killed (SIGKILL) mid-send and started again (issue 60): nobody
 * gets the update twice, nobody outside the segment, unsubscribed or bounced gets it, and every
 * entry of the segment gets it but for a message caught between its row's mark and the end of its
 * data. The mail server keeps each message and answers it only after a while, and the kill comes
 * while the instance has messages handed over and unanswered: the case that sends a message twice
 * without the hand-over.
 * Needs a build (`npm run build`; `npm run test:instances` makes one).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BENCH_SECRET, ensureBuild, freshDatabase, startSiteServer, type SiteServer } from "@/bench/support/site-server";
import { startMailCatcher } from "@/e2e/support/mail-catcher";
import { createDatabase, type Database } from "@/lib/db";
import { parseUpdate, sendUpdate } from "@/lib/updates/updates";

const SMTP_PORT = 2593;
const PORTS = [3257, 3258] as const;
const mailDir = path.resolve(".tmp", "servers-updates-inbox");
const SUBJECT = "We open on March 1";

let databaseFile: string;
let database: Database;
let catcher: SMTPServer;
const servers: SiteServer[] = [];

const serverEnv = {
  WAITLIST_SECRET: BENCH_SECRET,
  SITE_URL: "http://127.0.0.1:3257",
  SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
  MAIL_FROM: "FieldCrew <hello@fieldcrew.app>",
  MAIL_MAX_PER_HOUR: "100000",
  MAIL_MAX_PER_DOMAIN_PER_HOUR: "100000",
  WAITLIST_DELIVERY_RETRY_SECONDS: Array(10).fill("0.5").join(","),
  // Long enough that no attempt meets its deadline on a busy machine: what the kill leaves is what is measured.
  WAITLIST_DELIVERY_LEASE_SECONDS: "20",
};

function start(port: number, instance: string): Promise<SiteServer> {
  return startSiteServer({ port, databaseFile, env: { ...serverEnv, INSTANCE_ID: instance } }).then((server) => {
    servers.push(server);
    return server;
  });
}

/** The update's messages the SMTP server kept, per recipient. */
function updatesPerAddress(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of readdirSync(mailDir).filter((name) => name.endsWith(".eml"))) {
    const raw = readFileSync(path.join(mailDir, file), "utf8");
    if (!raw.includes(`Subject: ${SUBJECT}`)) continue;
    const to = /^To: (.+)$/m.exec(raw)![1]!.trim().toLowerCase();
    counts.set(to, (counts.get(to) ?? 0) + 1);
  }
  return counts;
}

const delivered = (updateId: number) => database.outboxMessage.count({ where: { updateId, status: "delivered" } });

beforeAll(async () => {
  ensureBuild();
  databaseFile = freshDatabase("servers-updates");
  // 1,200 made-up sign-ups (their confirmations counted as sent already), about 200 of them HVAC.
  execFileSync(path.join("node_modules", ".bin", "tsx"), ["prisma/seed.ts", "--count", "1200"], {
    env: { ...process.env, DATABASE_URL: `file:${databaseFile}` },
    stdio: "ignore",
  });
  database = createDatabase({ driver: "better-sqlite3", file: databaseFile });
  rmSync(mailDir, { recursive: true, force: true });
  catcher = await startMailCatcher({ port: SMTP_PORT, dir: mailDir, answerDelayMs: 300 });
}, 180_000);

afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  await new Promise<void>((resolve) => catcher?.close(() => resolve()));
  await database?.$disconnect();
});

describe("an update from two instances, one killed mid-send", () => {
  it("reaches each entry of its segment exactly once, and nobody else", async () => {
    const hvac = await database.waitlistEntry.findMany({ where: { businessType: "hvac" }, orderBy: { id: "asc" } });
    const [unsubscribed, bounced] = [hvac[0]!, hvac[1]!];
    await database.waitlistEntry.update({ where: { id: unsubscribed.id }, data: { unsubscribedAt: new Date() } });
    await database.waitlistEntry.update({
      where: { id: bounced.id },
      data: { mailSuppressedAt: new Date(), mailSuppressedReason: "SMTP 550" },
    });
    const chosen = hvac.slice(2).map((entry) => entry.email.toLowerCase());
    expect(chosen.length).toBeGreaterThan(100);

    let [a] = await Promise.all([start(PORTS[0], "a"), start(PORTS[1], "b")]);
    // Sent from the shell (npm run waitlist -- updates send), as a script would.
    const parsed = parseUpdate({ subject: SUBJECT, body: "Hello {{name}},\n\nFieldCrew opens on March 1.", type: "hvac" });
    if ("problems" in parsed) throw new Error(JSON.stringify(parsed.problems));
    const update = await sendUpdate(database, parsed.input, "servers-test", { email: "shell (test)", operatorId: null });
    expect(update.queued).toBe(chosen.length);

    // Killed once it has messages handed over and not yet answered (the mail server waits 300 ms).
    const handedOverByA = () =>
      database.outboxMessage.count({ where: { updateId: update.id, leaseOwner: "a", status: "pending", handedOverAt: { not: null } } });
    await expect.poll(handedOverByA, { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
    a.child.kill("SIGKILL");
    await new Promise((resolve) => a.child.once("exit", resolve));
    servers.splice(servers.indexOf(a), 1);
    expect(await delivered(update.id)).toBeLessThan(chosen.length);
    a = await start(PORTS[0], "a");

    await expect.poll(() => delivered(update.id), { timeout: 90_000, interval: 250 }).toBe(chosen.length);
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // long enough for a second send, were one due
    const got = updatesPerAddress();
    // Never twice, and nobody outside the segment, unsubscribed or bounced.
    expect([...got.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect([...got.keys()].filter((address) => !chosen.includes(address))).toEqual([]);
    expect(got.has(unsubscribed.email.toLowerCase())).toBe(false);
    expect(got.has(bounced.email.toLowerCase())).toBe(false);
    // The kill caught messages handed over and not yet answered: taken as delivered, not sent again.
    const settled = await database.outboxMessage.findMany({
      where: { updateId: update.id, lastError: { startsWith: "no answer after the message was handed over" } },
      select: { entry: { select: { email: true } } },
    });
    expect(settled.length).toBeGreaterThan(0);
    // Everyone chosen got it, but for a message whose instance died between its row's mark and the
    // end of its data (docs/operations.md, "Once per entry"): such a row is one of those settled.
    const settledAddresses = new Set(settled.map((row) => row.entry.email.toLowerCase()));
    const missing = chosen.filter((address) => !got.has(address));
    expect(missing.filter((address) => !settledAddresses.has(address))).toEqual([]);
    if (missing.length > 0) console.log(`lost in the hand-over window: ${missing.length} of ${chosen.length}`);
  }, 240_000);
});
