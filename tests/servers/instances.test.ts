/**
 * Two production servers (server.ts, as `npm start` runs it) on one database
 * file behave as one site: a shared rate limit, single-use questions, one row
 * per email, and notifications that survive a killed or restarted instance.
 * Needs a build (`npm run build`; `npm run test:instances` makes one).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { BENCH_SECRET, ensureBuild, freshDatabase, startSiteServer, type SiteServer } from "@/bench/support/site-server";
import { solve } from "@/lib/waitlist/challenge";
import { issueChallenge } from "@/lib/waitlist/challenge-token";
import { VALID_SIGNUP } from "../fixtures/signup";
import { createDatabase, type Database } from "@/lib/db";

const WEBHOOK_SECRET = `whsec_${Buffer.from("instances-test-webhook-secret-0123456789").toString("base64")}`;

/** A webhook receiver that refuses (503) or accepts (204), counting what it accepted and refused per webhook-id. */
async function startReceiver() {
  let accepting = false;
  const accepted = new Map<string, number>();
  const refused = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const id = String(request.headers["webhook-id"]);
      const counts = accepting ? accepted : refused;
      counts.set(id, (counts.get(id) ?? 0) + 1);
      response.statusCode = accepting ? 204 : 503;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    accepted,
    refused,
    accept: () => void (accepting = true),
    refuse: () => void (accepting = false),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * How long a sign-up's first delivery attempt may take to be made and refused. The sending thread
 * runs at niceness 19 (lib/outbox/channel-thread.ts): on a machine busy with other work (the test
 * lanes beside this one) starting it and its first attempts can take tens of seconds.
 */
const FIRST_ATTEMPTS_MS = 60_000;

let sequence = 0;

/** A valid sign-up body with its own freshly signed question (or the one given). */
function body(email = `instance.${process.pid}.${++sequence}@example.com`, challenge = issueChallenge(BENCH_SECRET, Date.now())) {
  return JSON.stringify({
    ...VALID_SIGNUP,
    email,
    challenge_token: challenge.token,
    challenge_answer: String(solve(challenge.challenge)),
  });
}

/** Posts a sign-up as the client at `address` (the servers trust one proxy hop). */
async function post(server: SiteServer, payload: string, address = `203.0.113.${1 + (++sequence % 250)}`) {
  const response = await fetch(`${server.url}/api/waitlist`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: payload,
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    retryAfter: response.headers.get("retry-after"),
  };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let databaseFile: string;
let database: Database;

const serverEnv = (instance: string) => ({
  WAITLIST_SECRET: BENCH_SECRET,
  WAITLIST_MIN_SUBMIT_MS: "0",
  WAITLIST_RATE_LIMIT_MAX: "5",
  TRUST_PROXY_HOPS: "1",
  WAITLIST_WEBHOOK_URL: receiver.url,
  WAITLIST_WEBHOOK_SECRET: WEBHOOK_SECRET,
  // Many quick retries, so a delivery waits for the receiver instead of failing for good.
  WAITLIST_DELIVERY_RETRY_SECONDS: Array(40).fill("0.5").join(","),
  WAITLIST_DELIVERY_LEASE_SECONDS: "3",
  INSTANCE_ID: instance,
});

let a: SiteServer;
let b: SiteServer;

beforeAll(async () => {
  ensureBuild();
  receiver = await startReceiver();
  databaseFile = freshDatabase("instances");
  database = createDatabase({ driver: "better-sqlite3", file: databaseFile });
  [a, b] = await Promise.all([
    startSiteServer({ port: 3251, databaseFile, env: serverEnv("a"), output: true }),
    startSiteServer({ port: 3252, databaseFile, env: serverEnv("b"), output: true }),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.$disconnect();
  await receiver?.close();
});

/**
 * The deliveries about entries stored after this is called: earlier tests' entries may still be
 * owed theirs, or be attempting them, and are not the caller's to count.
 */
async function fromHereOn(): Promise<{ entryId: { gt: number } }> {
  const { _max } = await database.waitlistEntry.aggregate({ _max: { id: true } });
  return { entryId: { gt: _max.id ?? 0 } };
}

/** How many of the deliveries `which` selects wait for a retry after the receiver refused them (not only claimed, or cut off). */
async function refusedAndPending(which: { entryId: { gt: number } }): Promise<number> {
  const rows = await database.outboxMessage.findMany({ where: { ...which, status: "pending" }, select: { id: true } });
  return rows.filter((row) => receiver.refused.has(row.id)).length;
}

/** The deliveries `which` selects: how many, and how many the receiver accepted exactly once. */
async function deliveriesSettled(which: {
  entryId: { gt: number };
}): Promise<{ owed: number; acceptedOnce: number; acceptedTwice: number; delivered: number }> {
  const rows = await database.outboxMessage.findMany({ where: which, select: { id: true, status: true } });
  return {
    owed: rows.length,
    acceptedOnce: rows.filter((row) => receiver.accepted.get(row.id) === 1).length,
    acceptedTwice: rows.filter((row) => (receiver.accepted.get(row.id) ?? 0) > 1).length,
    delivered: rows.filter((row) => row.status === "delivered").length,
  };
}

/** What each server logged as a fault, printed when a test fails: a status alone does not say why. */
function printFaultsOnFailure(): void {
  onTestFailed(() => {
    for (const [name, server] of [
      ["a", a],
      ["b", b],
    ] as const) {
      const faults = server
        .output()
        .split("\n")
        .filter((line) => line.includes('"fault"') || line.includes('"warn"') || /deliver|webhook/i.test(line));
      console.error(`server ${name} faults:\n${faults.join("\n") || "(none)"}`);
    }
  });
}

describe("two servers on one database", () => {
  it("limit one address across both: the sixth attempt is refused whichever server gets it", async () => {
    printFaultsOnFailure();
    const answers = [];
    for (let i = 0; i < 8; i += 1) {
      // Bad requests count too; every other attempt goes to the other server.
      answers.push(await post(i % 2 ? b : a, i < 3 ? "{}" : body(), "198.51.100.77"));
    }
    const codes = JSON.stringify(answers.map((answer) => answer.body.code ?? null));
    expect(
      answers.map((answer) => answer.status),
      codes,
    ).toEqual([400, 400, 400, 201, 201, 429, 429, 429]);
    expect(Number(answers[5]!.retryAfter)).toBeGreaterThan(500);
  });

  it("refuse on one a question already answered on the other", async () => {
    const challenge = issueChallenge(BENCH_SECRET, Date.now());
    expect((await post(a, body(undefined, challenge))).status).toBe(201);
    const reused = await post(b, body(undefined, challenge));
    expect(reused).toMatchObject({ status: 400, body: { code: "challenge_used" } });
  });

  it("store one row when one email is sent to both at once", async () => {
    const email = `both.at.once.${Date.now()}@example.com`;
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => post(i % 2 ? b : a, body(email))));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(9);
    expect(await database.waitlistEntry.count({ where: { emailNormalized: email } })).toBe(1);
  });

  it("count visits exactly: every view once, each visitor once a day, however the beacons are split between them", async () => {
    printFaultsOnFailure();
    const campaign = `instances-${process.pid}`;
    const beacon = (server: SiteServer, address: string, page: string) =>
      fetch(`${server.url}/api/visit`, {
        method: "POST",
        headers: {
          "content-type": "text/plain;charset=UTF-8",
          "x-forwarded-for": address,
          "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36",
          origin: server.url,
        },
        body: JSON.stringify({ type: "view", page, utm_source: "instances", utm_campaign: campaign }),
      }).then((response) => response.status);
    // 40 visitors (different /24 networks), 5 views each, all at once, alternating between the servers.
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => beacon(i % 2 ? b : a, `10.${Math.floor(i / 5) % 40}.7.${1 + (i % 5)}`, i % 3 ? "/" : "/about")),
    );
    expect(
      statuses.every((status) => status === 204),
      JSON.stringify(statuses.filter((status) => status !== 204)),
    ).toBe(true);
    // Beacons are answered before they are written (lib/analytics/handler.ts): the next batch, within moments.
    const counted = async () =>
      (
        await database.trafficDay.findMany({
          where: { step: "view", dimension: "campaign", value: JSON.stringify(["instances", "none", campaign]) },
        })
      ).map((row) => [row.events, row.visitors]);
    await expect.poll(counted, { timeout: 10_000 }).toEqual([[200, 40]]);
    // One salt for the day, made once for both.
    expect(await database.visitSalt.count()).toBe(1);
  });

  it("deliver every notification exactly once after one of them is killed with deliveries pending", async () => {
    printFaultsOnFailure();
    receiver.refuse();
    const ours = await fromHereOn();
    for (let i = 0; i < 20; i += 1) expect((await post(i % 2 ? b : a, body())).status).toBe(201);
    // Every new delivery has been tried and refused at least once: pending, waiting for a retry.
    await expect.poll(() => refusedAndPending(ours), { timeout: FIRST_ATTEMPTS_MS }).toBe(20);

    a.child.kill("SIGKILL");
    await new Promise((resolve) => a.child.once("exit", resolve));
    receiver.accept();

    await expect.poll(() => database.outboxMessage.count({ where: { ...ours, status: "delivered" } }), { timeout: 30_000 }).toBe(20);
    const settled = await deliveriesSettled(ours);
    expect(settled.acceptedTwice).toBe(0);
    expect(settled.acceptedOnce).toBe(20);
  }, 150_000);

  it("finish what is in flight when told to stop: every sign-up answered 201 is stored, and the process exits cleanly", async () => {
    const emails = Array.from({ length: 40 }, (_, i) => `graceful.${Date.now()}.${i}@example.com`);
    const inFlight = emails.map((email) => post(b, body(email)).catch(() => ({ status: 0 })));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const exited = new Promise<number | null>((resolve) => b.child.once("exit", (code) => resolve(code)));
    b.child.kill("SIGTERM");
    const answers = await Promise.all(inFlight);
    expect(await exited).toBe(0);
    const answered = emails.filter((_, i) => answers[i]!.status === 201);
    expect(answered.length).toBeGreaterThan(0); // some were in flight when the signal came
    expect(answers.every((answer) => answer.status === 201 || answer.status === 0)).toBe(true);
    expect(await database.waitlistEntry.count({ where: { email: { in: answered } } })).toBe(answered.length);
  }, 60_000);
});

describe("one server restarted", () => {
  it("deliver each notification that was due for a retry once, after the restart", async () => {
    receiver.refuse();
    const server = await startSiteServer({ port: 3253, databaseFile, env: serverEnv("restarted") });
    let restarted: SiteServer | undefined;
    try {
      const ours = await fromHereOn();
      for (let i = 0; i < 10; i += 1) expect((await post(server, body())).status).toBe(201);
      await expect.poll(() => refusedAndPending(ours), { timeout: FIRST_ATTEMPTS_MS }).toBe(10);
      await server.stop();

      receiver.accept();
      restarted = await startSiteServer({ port: 3253, databaseFile, env: serverEnv("restarted") });
      await expect.poll(() => database.outboxMessage.count({ where: { ...ours, status: "delivered" } }), { timeout: 30_000 }).toBe(10);
      expect((await deliveriesSettled(ours)).acceptedTwice).toBe(0);
    } finally {
      await server.stop();
      await restarted?.stop();
    }
  }, 150_000);

  it("answer GET /api/health with 200 and JSON that is never cached", async () => {
    const server = await startSiteServer({ port: 3254, databaseFile, env: serverEnv("health"), output: true });
    try {
      const response = await fetch(`${server.url}/api/health`);
      const answer = { status: response.status, cacheControl: response.headers.get("cache-control"), body: await response.json() };
      // The whole answer in one assertion: a 503's body says why.
      expect(answer, server.output()).toMatchObject({
        status: 200,
        cacheControl: "no-store",
        body: { status: "ok", database: "ok", migrations: { pending: [], unknown: [] } },
      });
    } finally {
      await server.stop();
    }
  }, 60_000);
});
