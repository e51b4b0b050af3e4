/**
 * The production server (server.ts on a build) when its database fails under
 * it: the connection thread dies or hangs mid-stream, the file cannot be
 * opened, another process holds the write lock for 20 s while sign-ups (and a
 * flood of them) keep coming. In every case: answers are 201 or 503 with
 * Retry-After (never 500, never a hang), health says what is going on within
 * 2 s, every 201 is stored and no 503 is, and the server recovers by itself.
 */
import BetterSqlite3 from "better-sqlite3";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, freshDatabase, LOAD_TEST_ENV, startSiteServer, type SiteServer } from "@/bench/support/site-server";
import { healthOf, logLines, signUpOnce, signUpWhile, sleep, threadsOf, type Answer } from "./support";

const PROBE = "tests/support/fault-probe.cjs";

let server: SiteServer | undefined;

beforeAll(() => ensureBuild(), 180_000);
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Which of these emails are in the file, read with a connection of the test's own. */
function storedOf(file: string, emails: string[]): Set<string> {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT email FROM waitlist_entries").all() as { email: string }[];
    const stored = new Set(rows.map((row) => row.email));
    return new Set(emails.filter((email) => stored.has(email)));
  } finally {
    db.close();
  }
}

/** The promise every answer keeps: 201 stored, 503 (with Retry-After) not stored, nothing else. */
function expectKept(file: string, answers: Answer[]) {
  const statuses = new Map<number, number>();
  for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  expect(
    [...statuses.keys()].filter((status) => status !== 201 && status !== 503),
    JSON.stringify({ statuses: [...statuses], errors: [...new Set(answers.flatMap((answer) => answer.error ?? []))] }),
  ).toEqual([]);
  const created = answers.filter((answer) => answer.status === 201).map((answer) => answer.email);
  const refused = answers.filter((answer) => answer.status === 503);
  expect(refused.every((answer) => answer.retryAfter !== null && Number(answer.retryAfter) > 0)).toBe(true);
  const stored = storedOf(file, [...created, ...refused.map((answer) => answer.email)]);
  expect(
    created.filter((email) => !stored.has(email)),
    "answered 201 but not stored",
  ).toEqual([]);
  expect(
    refused.filter((answer) => stored.has(answer.email)).map((answer) => answer.email),
    "answered 503 but stored",
  ).toEqual([]);
  return { created: created.length, refused: refused.length, statuses };
}

describe("the database thread dies mid-stream", () => {
  it("answers what was waiting with 503 at once, replaces the thread, keeps taking sign-ups, and loses no 201", async () => {
    const file = freshDatabase("faults-thread-dies");
    server = await startSiteServer({
      port: 3271,
      databaseFile: file,
      env: { ...LOAD_TEST_ENV, TRUST_PROXY_HOPS: "1" },
      preload: [PROBE],
      output: true,
    });
    const url = server.url;
    const started = Date.now();
    let killedAt = 0;
    const stream = signUpWhile(url, () => Date.now() - started > 4_000);
    const deaths: Promise<void>[] = [];
    for (const at of [1_000, 2_000, 3_000]) {
      deaths.push(
        sleep(at).then(() => {
          killedAt ||= Date.now();
          server!.child.kill("SIGWINCH");
        }),
      );
    }
    const answers = await stream;
    await Promise.all(deaths);

    const kept = expectKept(file, answers);
    expect(kept.created).toBeGreaterThan(50);
    expect(answers.every((answer) => answer.ms < 9_000)).toBe(true);
    expect(server.output()).toMatch(/"fault":"database_worker_died"/);
    expect((await signUpOnce(url, "198.51.100.251")).status).toBe(201);
    expect((await healthOf(url)).status).toBe(200);
    expect(killedAt).toBeGreaterThan(0);
  }, 60_000);
});

describe("the database thread hangs (a disk that stopped answering)", () => {
  it("answers health with 503 within 2 s during the hang, every sign-up within the query deadline, and 200 again once the thread is replaced", async () => {
    const file = freshDatabase("faults-thread-hangs");
    server = await startSiteServer({
      port: 3272,
      databaseFile: file,
      env: { ...LOAD_TEST_ENV, TRUST_PROXY_HOPS: "1", FAULT_PROBE_HANG_MS: "30000" },
      preload: [PROBE],
      output: true,
    });
    const url = server.url;
    expect((await signUpOnce(url)).status).toBe(201);
    server.child.kill("SIGURG");
    await sleep(200);

    const hungAt = Date.now();
    const answers: Answer[] = [];
    const signups = Promise.all(
      Array.from({ length: 20 }, (_, i) => signUpOnce(url, `198.51.100.${10 + i}`).then((answer) => answers.push(answer))),
    );
    const health = await healthOf(url);
    expect(health.status).toBe(503);
    expect(health.ms).toBeLessThan(2_000);
    expect(health.body).toMatchObject({ status: "unavailable", database: "busy" });
    await signups;
    // The query deadline (15 s) ends the hung thread; nothing waits longer than that and a little.
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(17_000);
    expect(Date.now() - hungAt).toBeLessThan(18_000);
    expectKept(file, answers);

    await expect.poll(async () => (await healthOf(url)).status, { timeout: 5_000 }).toBe(200);
    expect((await signUpOnce(url, "198.51.100.252")).status).toBe(201);
    expect(server.output()).toMatch(/"fault":"database_query_deadline"/);
  }, 90_000);
});

/** A session cookie the server would accept as its own (signed with its secret, LOAD_TEST_ENV's), for a made-up session. */
async function signedSessionCookie(): Promise<string> {
  Object.assign(process.env, { DATABASE_URL: `file:${freshDatabase("faults-cookie")}`, WAITLIST_SECRET: LOAD_TEST_ENV.WAITLIST_SECRET });
  const { getAuth } = await import("@/lib/auth/auth");
  const { closeDatabase } = await import("@/lib/db");
  const { sessionCookie } = await import("../support/operator-session");
  const { secret } = await getAuth().$context;
  await closeDatabase();
  return sessionCookie("made-up-session-token", secret);
}

describe("a database file that cannot be opened", () => {
  it("answers 200 health polls with 503 and the reason, each within 2 s, with threads and memory flat", async () => {
    const file = path.resolve(".tmp", "faults-unopenable", "waitlist.db");
    mkdirSync(file, { recursive: true }); // a directory where the file should be
    server = await startSiteServer({ port: 3273, databaseFile: file, env: LOAD_TEST_ENV, readyPath: "/", output: true });
    const url = server.url;
    for (let i = 0; i < 20; i += 1) await healthOf(url);
    const threads = threadsOf(server.pid);
    const memory = (await server.memoryAfterGc()).rss;
    let slowest = 0;
    for (let i = 0; i < 200; i += 1) {
      const health = await healthOf(url);
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ database: "unreachable", problems: ["the database file cannot be opened"] });
      slowest = Math.max(slowest, health.ms);
    }
    expect(slowest).toBeLessThan(2_000);
    expect(threadsOf(server.pid)).toBeLessThanOrEqual(threads + 1);
    // A thread or a connection kept per failed open would grow it by hundreds of MiB over these
    // 200 polls; the heap's own growth is 13-21 MiB alone on the machine, and reached 31 beside
    // the unit tests in one fresh-clone run (2026-11-27).
    expect((await server.memoryAfterGc()).rss - memory).toBeLessThan(50);
    const signup = await signUpOnce(url);
    expect(signup.status).toBe(503);
    expect(signup.retryAfter).not.toBeNull();

    // The console and the library's session endpoint cannot read a session either: 503 to try
    // again, never the 500 Next answers for a page that threw (lib/site/front-door.ts).
    const cookie = await signedSessionCookie();
    for (const path of ["/operator/entries", "/operator/overview", "/api/auth/get-session"]) {
      const response = await fetch(`${url}${path}`, { headers: { cookie }, redirect: "manual" });
      expect({ path, status: response.status }).toEqual({ path, status: 503 });
      expect(Number(response.headers.get("retry-after")), path).toBeGreaterThan(0);
      expect(await response.text(), path).not.toMatch(/cannot be opened|SQLITE|stack/i);
    }
    expect(server.output()).not.toMatch(/"status":500/);
    // Nothing of it is logged as a bug: the library's wrapped errors included.
    expect(server.output()).not.toMatch(/"fault":"unexpected"/);
    // What the page threw is in the log once, under the request's id (lib/site/request-errors.ts), not only
    // on standard error as Next prints it; better-auth wraps the database's error in its own, and
    // the line still says the database was why.
    const pageFaults = logLines(server).filter((line) => line.route === "/operator/overview" && line.fault);
    expect(pageFaults).toEqual([expect.objectContaining({ level: "warn", fault: "database_unavailable", request_id: expect.any(String) })]);
  }, 90_000);
});

describe("another process holds the write lock for 20 s", () => {
  it("answers sign-ups meanwhile with 503 and Retry-After (a flood of thousands at once too, turned away at once with memory bounded), then 201 again; every 201 stored, no 503 stored", async () => {
    const file = freshDatabase("faults-locked");
    server = await startSiteServer({ port: 3274, databaseFile: file, env: { ...LOAD_TEST_ENV, TRUST_PROXY_HOPS: "1" }, output: true });
    const url = server.url;
    expect((await signUpOnce(url)).status).toBe(201);
    const baseline = (await server.memoryAfterGc()).rss;

    // An operator's long transaction (or a backup tool) in another process: BEGIN IMMEDIATE holds the write lock.
    const holder = new BetterSqlite3(file);
    holder.exec("BEGIN IMMEDIATE");
    const lockedAt = Date.now();
    let lockEndedAt = 0;
    let floodDone!: () => void;
    const floodAnswered = new Promise<void>((resolve) => (floodDone = resolve));
    // Held for 20 s, and in any case until the flood has its answers (a slow machine takes longer).
    const released = Promise.all([sleep(20_000), floodAnswered]).then(() => {
      holder.exec("COMMIT");
      lockEndedAt = Date.now();
    });
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, server!.rssMiB())), 100);
    try {
      const trickle = signUpWhile(url, () => Date.now() - lockedAt > 19_000, 4);
      await sleep(3_000);
      // The flood: 3,000 sign-ups at once, each from its own address.
      const floodStarted = performance.now();
      const flood = await Promise.all(
        Array.from({ length: 3_000 }, (_, i) => signUpOnce(url, `10.${(i >> 8) & 255}.${i & 255}.7`, "flood")),
      );
      const floodMs = performance.now() - floodStarted;
      const health = await healthOf(url);
      floodDone();
      const during = await trickle;
      await released;

      expect(health.ms).toBeLessThan(2_000);
      // Health reads the database, and reads go on under another process's write lock: it is 503
      // while a sign-up's write waits for the lock in front of it, 200 once none does (on a slow
      // machine the flood can outlast the trickle, and the flood's last are turned away unwritten).
      expect([200, 503]).toContain(health.status);
      const trickleKept = expectKept(file, during);
      expect(trickleKept.refused).toBeGreaterThan(4);
      // The server's own time for each: at most the request's deadline (8 s) waiting for a batch,
      // then the batch's busy timeout (3 s). As the client saw it, the time also holds the wait to
      // be read behind a flood of 3,000 on two cores shared with the test itself: bounded loosely, so
      // a hang still fails (a rehearsal on a busy machine went past 12 s there; beside four CPU
      // burners the server's own longest was 6.8 s and the client's 13.7 s).
      const answered = logLines(server).filter((line) => line.route === "/api/waitlist" && line.status !== undefined);
      const serverMs = new Map(answered.map((line) => [line.request_id, line.ms as number]));
      const trickleServerMs = during.map((answer) => serverMs.get(answer.requestId) ?? Infinity);
      expect(Math.max(...trickleServerMs)).toBeLessThan(12_000);
      expect(Math.max(...during.map((answer) => answer.ms))).toBeLessThan(30_000);

      const floodKept = expectKept(file, flood);
      expect(floodKept.created).toBe(0);
      // As the client saw it: 10.6 s alone on a 2-core machine, 17.5 s beside two CPU burners, 32 s
      // beside four. What the site promises is the server's own time, below.
      expect(floodMs).toBeLessThan(45_000);
      // The server's own time for each: most of the flood was turned away at once (too many in
      // flight, or too many waiting to be written), without waiting for the database.
      const refusedAtOnce = logLines(server).filter(
        (line) => line.route === "/api/waitlist" && line.status === 503 && (line.ms as number) <= 50,
      ).length;
      expect(refusedAtOnce).toBeGreaterThan(flood.length / 2);
      expect(peakRss - baseline).toBeLessThan(250);
      expect(server.output()).toMatch(/"fault":"overloaded"/);
      expect(server.output()).toMatch(/"fault":"database_busy"/);

      // Recovered within seconds of the lock's end.
      let after: Answer | undefined;
      while (Date.now() - lockEndedAt < 10_000) {
        after = await signUpOnce(url, "198.51.100.253", "after-lock");
        if (after.status === 201) break;
        await sleep(200);
      }
      expect(after?.status).toBe(201);
      expect(Date.now() - lockEndedAt).toBeLessThan(5_000);
      expectKept(file, [after!]);
      expect((await healthOf(url)).status).toBe(200);
    } finally {
      clearInterval(sampler);
      floodDone();
      await released.catch(() => {});
      if (holder.inTransaction) holder.exec("ROLLBACK");
      holder.close();
    }
  }, 120_000);
});
