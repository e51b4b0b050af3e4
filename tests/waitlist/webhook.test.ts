/**
 * The new-sign-up webhook through the outbox: the real handler writes the
 * sign-up and its outbox row in one transaction, the real delivery worker sends
 * it to a real local HTTP receiver, which checks it with the `standardwebhooks`
 * package as any receiver would.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureLog } from "@/lib/log";
import { createDatabase, getDatabase } from "@/lib/db";
import { databaseSettings, parseEnv } from "@/lib/env";
import { DeliveryWorker, type Channel } from "@/lib/outbox/worker";
import { SharedRateLimiter } from "@/lib/security/rate-limit";
import { signUpEndpoint } from "../support/sign-up";
import { oweNewSignups, owingNewSignups } from "@/lib/waitlist/signup-deliveries";
import { SIGNUP_EVENT, webhookChannel } from "@/lib/waitlist/webhook";
import { countEntries, setUpTestDatabase, storedEntries } from "../support/database";
import { jsonRequest, signupBody } from "../support/requests";
import { testSecret } from "../support/challenge";

const { url: databaseUrl } = setUpTestDatabase();

const WEBHOOK_SECRET = `whsec_${Buffer.from("webhook-test-secret-0123456789abcdef").toString("base64")}`;

type Received = { headers: IncomingMessage["headers"]; body: string; answered: number };
type Behaviour = "ok" | "fail" | "gone" | "moved" | "hang";

/** A receiver that answers each request with the next behaviour in the list (the last one repeats). */
async function startReceiver(behaviours: Behaviour[]) {
  const received: Received[] = [];
  const hanging: (() => void)[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const behaviour = behaviours[Math.min(received.length, behaviours.length - 1)]!;
      const answered = { ok: 204, fail: 503, gone: 410, moved: 301, hang: 0 }[behaviour];
      received.push({ headers: request.headers, body, answered });
      if (behaviour === "hang") {
        hanging.push(() => response.end());
        return;
      }
      if (behaviour === "moved") response.setHeader("Location", "http://127.0.0.1:9/elsewhere");
      response.statusCode = answered;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/waitlist`,
    received,
    /** Deliveries the receiver accepted, per webhook-id. */
    acceptedPerId() {
      const counts = new Map<string, number>();
      for (const { headers, answered } of received) {
        if (answered >= 200 && answered < 300)
          counts.set(String(headers["webhook-id"]), (counts.get(String(headers["webhook-id"])) ?? 0) + 1);
      }
      return counts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        hanging.forEach((finish) => finish());
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The workers' clock: starts a minute ahead, so what the tests store is already due. */
let clock: number;

/** A worker on the test's database with a moved clock; its retries wait 1 and 2 s of that clock. */
function workerFor(channel: Channel, options: { owner?: string; leaseMs?: number; database?: ReturnType<typeof createDatabase> } = {}) {
  return new DeliveryWorker({
    channels: { webhook: channel },
    owner: options.owner ?? "test-instance",
    retryDelaysMs: [1_000, 2_000],
    leaseMs: options.leaseMs ?? 60_000,
    now: () => clock,
    database: options.database ? () => options.database! : undefined,
    owe: owingNewSignups(testSecret()),
  });
}

/** The real handler, owing a webhook for each new sign-up; deliveries are started by the test. */
function handler(options: { afterResponse?: (work: () => void) => void; deliverSoon?: () => void } = {}) {
  return signUpEndpoint({
    secret: testSecret(),
    minSubmitMs: 0,
    siteUrl: "http://localhost:3000",
    limiter: new SharedRateLimiter({ max: 1_000, windowMs: 60_000 }),
    deliverSoon: options.deliverSoon ?? (() => {}),
    afterResponse: options.afterResponse ?? (() => {}),
  });
}

const outbox = () => getDatabase().outboxMessage.findMany({ orderBy: { createdAt: "asc" } });

let captured: ReturnType<typeof captureLog>;
beforeEach(() => {
  clock = Date.now() + 60_000;
  captured = captureLog();
});
afterEach(() => captured.stop());

describe("the new-sign-up webhook", () => {
  it("is owed for the sign-up by the worker's pass and delivered once, signed the Standard Webhooks way", async () => {
    const receiver = await startReceiver(["ok"]);
    try {
      const post = handler();
      const body = signupBody({ email: "hooked@example.com", notes: `Quotes "and", commas, 🔧` });
      expect((await post(jsonRequest({ ...body, source_page: "/careers", utm_source: "newsletter" }))).status).toBe(201);
      // The insert writes only the entry; the worker owes it its webhook before it claims.
      expect(await outbox()).toEqual([]);

      const worker = workerFor(webhookChannel({ url: receiver.url, secret: WEBHOOK_SECRET }));
      expect(await worker.sweep()).toBe(1);
      const [sent] = await outbox();
      expect(sent).toMatchObject({ kind: "webhook", event: "created" });
      expect(receiver.received).toHaveLength(1);
      const [delivery] = receiver.received;
      expect(delivery!.headers["content-type"]).toBe("application/json");
      expect(delivery!.headers["webhook-id"]).toBe(sent!.id);

      // What a receiver does: verify with the Standard Webhooks library and the shared secret.
      const headers = {
        "webhook-id": String(delivery!.headers["webhook-id"]),
        "webhook-timestamp": String(delivery!.headers["webhook-timestamp"]),
        "webhook-signature": String(delivery!.headers["webhook-signature"]),
      };
      const payload = new Webhook(WEBHOOK_SECRET).verify(delivery!.body, headers) as {
        type: string;
        timestamp: string;
        data: Record<string, unknown>;
      };
      const other = `whsec_${Buffer.from("another-secret-another-secret-another").toString("base64")}`;
      expect(() => new Webhook(other).verify(delivery!.body, headers)).toThrow();
      expect(() => new Webhook(WEBHOOK_SECRET).verify(delivery!.body.replace("hooked", "forged"), headers)).toThrow();

      const [row] = await storedEntries();
      expect(payload.type).toBe(SIGNUP_EVENT);
      expect(Date.parse(payload.timestamp)).toBe(Date.parse(row!.created_at));
      expect(payload.data).toEqual({
        id: row!.id,
        created_at: row!.created_at,
        company_name: row!.company_name,
        contact_name: row!.contact_name,
        email: "hooked@example.com",
        phone: row!.phone,
        business_type: row!.business_type,
        company_size: row!.company_size,
        notes: `Quotes "and", commas, 🔧`,
        source_page: "/careers",
        utm_source: "newsletter",
        utm_medium: null,
        utm_campaign: null,
      });
      expect(await outbox()).toEqual([expect.objectContaining({ status: "delivered", attempts: 1, leaseOwner: null })]);
      expect(await worker.sweep()).toBe(0); // nothing is sent twice
    } finally {
      await receiver.close();
    }
  });

  it("is owed only for new sign-ups: not for a duplicate or a bot", async () => {
    const post = handler();
    expect((await post(jsonRequest(signupBody({ email: "once@example.com" })))).status).toBe(201);
    expect((await post(jsonRequest(signupBody({ email: "ONCE@example.com" })))).status).toBe(409);
    expect((await post(jsonRequest({ ...signupBody(), website: "bot" }))).status).toBe(201);
    // Two at once with one email, written by one statement: still one row and one delivery.
    const together = await Promise.all([0, 1].map(() => post(jsonRequest(signupBody({ email: "twice@example.com" })))));
    expect(together.map((response) => response.status).sort()).toEqual([201, 409]);
    expect(await oweNewSignups(getDatabase(), ["webhook"], testSecret())).toBe(2);
    expect((await outbox()).map((row) => row.kind)).toEqual(["webhook", "webhook"]);
    expect(await countEntries()).toBe(2);
  });

  it("is owed with the mark that passes its entry: if the outbox rows cannot be written, the mark stays and they are owed at the next pass", async () => {
    expect((await handler()(jsonRequest(signupBody({ email: "atomic@example.com" })))).status).toBe(201);
    await getDatabase().$executeRawUnsafe(
      "CREATE TRIGGER refuse_outbox BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'outbox refused'); END",
    );
    try {
      await expect(oweNewSignups(getDatabase(), ["webhook"], testSecret())).rejects.toThrow();
    } finally {
      await getDatabase().$executeRawUnsafe("DROP TRIGGER refuse_outbox");
    }
    expect(await outbox()).toEqual([]);
    expect(await oweNewSignups(getDatabase(), ["webhook"], testSecret())).toBe(1);
    expect(await outbox()).toEqual([expect.objectContaining({ kind: "webhook", status: "pending" })]);
  });

  it("is owed once to every stored sign-up, by whichever instance passes it first, also for sign-ups stored while no worker ran", async () => {
    const other = createDatabase(databaseSettings({ ...parseEnv(), DATABASE_URL: databaseUrl }));
    try {
      const post = handler();
      for (let i = 0; i < 30; i += 1) expect((await post(jsonRequest(signupBody()))).status).toBe(201);
      // Two instances pass at once, in small batches: each entry is owed by exactly one of them.
      const owe = (database: typeof other) => oweNewSignups(database, ["webhook"], testSecret(), new Date(), 7);
      let passed = 0;
      for (let round = 0; round < 10; round += 1)
        passed += (await Promise.all([owe(getDatabase()), owe(other)])).reduce((sum, n) => sum + n, 0);
      expect(passed).toBe(30);
      const rows = await outbox();
      expect(rows).toHaveLength(30);
      expect(new Set(rows.map((row) => row.entryId)).size).toBe(30);
    } finally {
      await other.$disconnect();
    }
  });

  it("is not owed for sign-ups stored while no delivery was configured: turning the webhook on later sends nothing for them", async () => {
    expect((await handler()(jsonRequest(signupBody({ email: "before@example.com" })))).status).toBe(201);
    // An instance without a webhook still moves the mark, owing nothing.
    const unconfigured = new DeliveryWorker({
      channels: {},
      owner: "plain",
      retryDelaysMs: [],
      leaseMs: 60_000,
      owe: owingNewSignups(testSecret()),
    });
    expect(await unconfigured.sweep()).toBe(0);
    expect((await handler()(jsonRequest(signupBody({ email: "after@example.com" })))).status).toBe(201);
    const receiver = await startReceiver(["ok"]);
    try {
      expect(await workerFor(webhookChannel({ url: receiver.url, secret: WEBHOOK_SECRET })).sweep()).toBe(1);
      expect(receiver.received.map((delivery) => (JSON.parse(delivery.body) as { data: { email: string } }).data.email)).toEqual([
        "after@example.com",
      ]);
    } finally {
      await receiver.close();
    }
  });

  it("starts delivering after the answer has gone out, never before", async () => {
    const receiver = await startReceiver(["hang"]);
    try {
      const worker = workerFor(webhookChannel({ url: receiver.url, secret: WEBHOOK_SECRET, timeoutMs: 300 }));
      const afterResponse: (() => void)[] = [];
      const post = handler({ afterResponse: (work) => afterResponse.push(work), deliverSoon: () => worker.deliverSoon() });
      const response = await post(jsonRequest(signupBody({ email: "slow@example.com" })));
      expect(response.status).toBe(201);
      expect(receiver.received).toHaveLength(0); // answered; nothing sent yet
      expect(afterResponse).toHaveLength(1);

      afterResponse[0]!(); // what Next does once the response is sent
      await expect.poll(() => receiver.received.length).toBe(1);
      await worker.idle();
      expect(await outbox()).toEqual([expect.objectContaining({ status: "pending", attempts: 1, lastError: "no answer within 300 ms" })]);
    } finally {
      await receiver.close();
    }
  });

  it("retries a failing receiver after each backoff, with the same webhook-id, until it accepts", async () => {
    const receiver = await startReceiver(["fail", "fail", "ok"]);
    try {
      expect((await handler()(jsonRequest(signupBody()))).status).toBe(201);
      const worker = workerFor(webhookChannel({ url: receiver.url, secret: WEBHOOK_SECRET }));
      expect(await worker.sweep()).toBe(1);
      expect(await worker.sweep()).toBe(0); // not due again until 1 s later
      clock += 1_000;
      expect(await worker.sweep()).toBe(1);
      clock += 1_999;
      expect(await worker.sweep()).toBe(0);
      clock += 1;
      expect(await worker.sweep()).toBe(1);
      expect(receiver.received).toHaveLength(3);
      expect(new Set(receiver.received.map((delivery) => delivery.headers["webhook-id"])).size).toBe(1);
      expect(await outbox()).toEqual([expect.objectContaining({ status: "delivered", attempts: 3, lastError: null })]);
    } finally {
      await receiver.close();
    }
  });

  it("with the receiver down: keeps the delivery as failed after the last attempt, and logs it without personal data", async () => {
    const receiver = await startReceiver(["ok"]);
    await receiver.close(); // nothing listens on that port now
    expect((await handler()(jsonRequest(signupBody({ email: "down@example.com" })))).status).toBe(201);
    const worker = workerFor(webhookChannel({ url: receiver.url, secret: WEBHOOK_SECRET }));
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(await worker.sweep()).toBe(1);
      clock += 2_000;
    }
    expect(await worker.sweep()).toBe(0);
    expect(await outbox()).toEqual([expect.objectContaining({ status: "failed", attempts: 3, lastError: "connection failed" })]);
    expect(captured.lines).toContainEqual(
      expect.objectContaining({
        fault: "delivery_failed",
        kind: "webhook",
        entry_id: expect.any(Number),
        delivery_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        attempts: 3,
        problem: "connection failed",
      }),
    );
    expect(captured.text()).not.toContain("down@example.com");
  });

  it("does not retry an answer that will not change (4xx other than 408 and 429)", async () => {
    const receiver = await startReceiver(["gone"]);
    try {
      expect((await handler()(jsonRequest(signupBody()))).status).toBe(201);
      expect(await workerFor(webhookChannel({ url: receiver.url, secret: WEBHOOK_SECRET })).sweep()).toBe(1);
      expect(await outbox()).toEqual([expect.objectContaining({ status: "failed", attempts: 1, lastError: "HTTP 410" })]);
    } finally {
      await receiver.close();
    }
  });

  it("does not follow a redirect: the sign-up is not posted anywhere but the configured address, and the delivery fails for good", async () => {
    const receiver = await startReceiver(["moved"]);
    try {
      expect((await handler()(jsonRequest(signupBody()))).status).toBe(201);
      expect(await workerFor(webhookChannel({ url: receiver.url, secret: WEBHOOK_SECRET })).sweep()).toBe(1);
      expect(receiver.received).toHaveLength(1);
      expect(await outbox()).toEqual([expect.objectContaining({ status: "failed", attempts: 1, lastError: "HTTP 301" })]);
    } finally {
      await receiver.close();
    }
  });

  it("is claimed by one instance at a time: two workers sweeping together deliver each once", async () => {
    const receiver = await startReceiver(["ok"]);
    const other = createDatabase(databaseSettings({ ...parseEnv(), DATABASE_URL: databaseUrl }));
    try {
      const post = handler();
      for (let i = 0; i < 20; i += 1) expect((await post(jsonRequest(signupBody()))).status).toBe(201);
      const channel = webhookChannel({ url: receiver.url, secret: WEBHOOK_SECRET });
      const a = workerFor(channel, { owner: "a" });
      const b = workerFor(channel, { owner: "b", database: other });
      const claimed = await Promise.all([a.sweep(), b.sweep(), a.sweep(), b.sweep()]);
      expect(claimed.reduce((sum, n) => sum + n, 0)).toBe(20);
      expect([...receiver.acceptedPerId().values()]).toEqual(Array(20).fill(1));
    } finally {
      await other.$disconnect();
      await receiver.close();
    }
  });

  it("is taken over by another instance when the lease of one that stopped answering runs out", async () => {
    const receiver = await startReceiver(["ok"]);
    // Instance a claims it and never finishes (as if it had died mid-attempt).
    const stuck = workerFor(() => new Promise(() => {}), { owner: "a", leaseMs: 30_000 });
    try {
      expect((await handler()(jsonRequest(signupBody()))).status).toBe(201);
      stuck.deliverSoon();
      await expect.poll(async () => (await outbox())[0]?.leaseOwner).toBe("a");
      const b = workerFor(webhookChannel({ url: receiver.url, secret: WEBHOOK_SECRET }), { owner: "b" });
      expect(await b.sweep()).toBe(0); // leased
      clock += 30_000;
      expect(await b.sweep()).toBe(1);
      expect([...receiver.acceptedPerId().values()]).toEqual([1]);
      expect(await outbox()).toEqual([expect.objectContaining({ status: "delivered", attempts: 2 })]);
    } finally {
      // Its attempt would otherwise end at its deadline, long after this file, and record its
      // outcome through whatever database the process holds then: another file's.
      await stuck.stop(0);
      await receiver.close();
    }
  });

  it("is handed back by an instance that stops, so another sends it at once", async () => {
    const receiver = await startReceiver(["ok"]);
    try {
      expect((await handler()(jsonRequest(signupBody()))).status).toBe(201);
      const stopping = workerFor(() => new Promise(() => {}), { owner: "a" });
      stopping.deliverSoon();
      await expect.poll(async () => (await outbox())[0]?.leaseOwner).toBe("a");
      await stopping.stop(50);
      expect(await outbox()).toEqual([expect.objectContaining({ status: "pending", leaseOwner: null })]);
      expect(await workerFor(webhookChannel({ url: receiver.url, secret: WEBHOOK_SECRET }), { owner: "b" }).sweep()).toBe(1);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("goes with its entry: removing an entry removes what was owed about it", async () => {
    expect((await handler()(jsonRequest(signupBody({ email: "leaving@example.com" })))).status).toBe(201);
    await oweNewSignups(getDatabase(), ["webhook"], testSecret());
    expect(await getDatabase().outboxMessage.count()).toBe(1);
    await getDatabase().waitlistEntry.deleteMany({ where: { emailNormalized: "leaving@example.com" } });
    expect(await getDatabase().outboxMessage.count()).toBe(0);
  });

  it("is configured by WAITLIST_WEBHOOK_URL with a required Standard Webhooks WAITLIST_WEBHOOK_SECRET", () => {
    expect(() => parseEnv({ WAITLIST_WEBHOOK_URL: "https://crm.example/hooks" })).toThrow(/WAITLIST_WEBHOOK_SECRET: must be set/);
    expect(() =>
      parseEnv({ WAITLIST_WEBHOOK_URL: "https://crm.example/hooks", WAITLIST_WEBHOOK_SECRET: "0123456789abcdef0123456789abcdef" }),
    ).toThrow(/WAITLIST_WEBHOOK_SECRET: must be a Standard Webhooks secret: whsec_/);
    expect(() => parseEnv({ WAITLIST_WEBHOOK_URL: "ftp://crm.example", WAITLIST_WEBHOOK_SECRET: WEBHOOK_SECRET })).toThrow(
      /WAITLIST_WEBHOOK_URL/,
    );
    expect(parseEnv({ WAITLIST_WEBHOOK_URL: "https://crm.example/hooks", WAITLIST_WEBHOOK_SECRET: WEBHOOK_SECRET })).toMatchObject({
      WAITLIST_WEBHOOK_URL: "https://crm.example/hooks",
    });
  });
});
