/**
 * The new-sign-up webhook against a real local HTTP receiver started here,
 * through the real handler and a real SQLite file.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseEnv } from "@/lib/env";
import { FixedWindowRateLimiter } from "@/lib/security/rate-limit";
import { createSignupHandler } from "@/lib/waitlist/handler";
import type { EntryRecord } from "@/lib/waitlist/store";
import {
  createWebhookNotifier,
  DELIVERY_HEADER,
  isValidSignature,
  SIGNATURE_HEADER,
  SIGNUP_EVENT,
  type DeliveryResult,
} from "@/lib/waitlist/webhook";
import { countEntries, setUpTestDatabase, storedEntries } from "./support/database";
import { jsonRequest, signupBody } from "./support/requests";
import { testSecret } from "./support/challenge";

setUpTestDatabase();

const WEBHOOK_SECRET = "webhook-test-secret-0123456789abcdef";

type Received = { headers: IncomingMessage["headers"]; body: string };

/** A receiver that answers each request with the next behaviour in the list (the last one repeats). */
async function startReceiver(behaviours: ("ok" | "fail" | "hang")[]) {
  const received: Received[] = [];
  const hanging: (() => void)[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      const behaviour = behaviours[Math.min(received.length - 1, behaviours.length - 1)];
      if (behaviour === "hang") {
        hanging.push(() => response.end());
        return;
      }
      response.statusCode = behaviour === "ok" ? 204 : 503;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/waitlist`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        hanging.forEach((finish) => finish());
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A handler wired to a notifier, recording each delivery's promise so tests can await the outcome. */
function handlerNotifying(url: string, options: { timeoutMs?: number; retryDelaysMs?: number[] } = {}) {
  const deliveries: Promise<DeliveryResult>[] = [];
  const notify = createWebhookNotifier({ url, secret: WEBHOOK_SECRET, retryDelaysMs: [10, 20], ...options });
  const post = createSignupHandler({
    secret: testSecret(),
    minSubmitMs: 0,
    siteUrl: "http://localhost:3000",
    limiter: new FixedWindowRateLimiter({ max: 1_000, windowMs: 60_000 }),
    onCreated: (entry) => deliveries.push(notify(entry)),
  });
  return { post, deliveries };
}

let errors: string[];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void errors.push(args.join(" ")));
});
afterEach(() => vi.restoreAllMocks());

describe("the new-sign-up webhook", () => {
  it("delivers each new sign-up once, as JSON with a valid signature", async () => {
    const receiver = await startReceiver(["ok"]);
    try {
      const { post, deliveries } = handlerNotifying(receiver.url);
      const body = signupBody({ email: "hooked@example.com", notes: `Quotes "and", commas, 🔧` });
      expect((await post(jsonRequest({ ...body, source_page: "/careers", utm_source: "newsletter" }))).status).toBe(201);
      expect(await deliveries[0]).toMatchObject({ delivered: true, attempts: 1 });

      expect(receiver.received).toHaveLength(1);
      const [delivery] = receiver.received;
      expect(delivery!.headers["content-type"]).toBe("application/json");
      expect(isValidSignature(WEBHOOK_SECRET, delivery!.headers[SIGNATURE_HEADER.toLowerCase()] as string, delivery!.body, Date.now() / 1000)).toBe(true);
      expect(isValidSignature("another-secret-another-secret-another", delivery!.headers[SIGNATURE_HEADER.toLowerCase()] as string, delivery!.body, Date.now() / 1000)).toBe(false);
      expect(isValidSignature(WEBHOOK_SECRET, delivery!.headers[SIGNATURE_HEADER.toLowerCase()] as string, delivery!.body.replace("hooked", "forged"), Date.now() / 1000)).toBe(false);

      const payload = JSON.parse(delivery!.body) as { id: string; event: string; entry: EntryRecord };
      const [row] = (await storedEntries());
      expect(payload).toMatchObject({ event: SIGNUP_EVENT, id: delivery!.headers[DELIVERY_HEADER.toLowerCase()] });
      expect(payload.entry).toEqual({
        id: row!.id,
        company_name: row!.company_name,
        contact_name: row!.contact_name,
        email: "hooked@example.com",
        phone: row!.phone,
        business_type: row!.business_type,
        company_size: row!.company_size,
        notes: `Quotes "and", commas, 🔧`,
        created_at: row!.created_at,
        source_page: "/careers",
        utm_source: "newsletter",
        utm_medium: null,
        utm_campaign: null,
      });
    } finally {
      await receiver.close();
    }
  });

  it("is not sent for refused sign-ups (a duplicate, a bot)", async () => {
    const receiver = await startReceiver(["ok"]);
    try {
      const { post, deliveries } = handlerNotifying(receiver.url);
      expect((await post(jsonRequest(signupBody({ email: "once@example.com" })))).status).toBe(201);
      expect((await post(jsonRequest(signupBody({ email: "ONCE@example.com" })))).status).toBe(409);
      expect((await post(jsonRequest({ ...signupBody(), website: "bot" }))).status).toBe(201);
      await Promise.all(deliveries);
      expect(deliveries).toHaveLength(1);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("retries a failing receiver with the same delivery id until it accepts", async () => {
    const receiver = await startReceiver(["fail", "fail", "ok"]);
    try {
      const { post, deliveries } = handlerNotifying(receiver.url);
      expect((await post(jsonRequest(signupBody()))).status).toBe(201);
      expect(await deliveries[0]).toMatchObject({ delivered: true, attempts: 3 });
      const ids = new Set(receiver.received.map((delivery) => delivery.headers[DELIVERY_HEADER.toLowerCase()]));
      expect(receiver.received).toHaveLength(3);
      expect(ids.size).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it("with the receiver down: the sign-up answers 201 and is stored; delivery gives up after its retries and logs it", async () => {
    const receiver = await startReceiver(["ok"]);
    const downUrl = receiver.url;
    await receiver.close(); // nothing listens on that port now
    const { post, deliveries } = handlerNotifying(downUrl);
    const response = await post(jsonRequest(signupBody({ email: "down@example.com" })));
    expect(response.status).toBe(201);
    expect((await countEntries())).toBe(1);
    const result = await deliveries[0]!;
    expect(result).toMatchObject({ delivered: false, attempts: 3 });
    expect(errors.join("\n")).toMatch(/webhook delivery failed entry_id=\d+ .*attempts=3: connection failed/);
    expect(errors.join("\n")).not.toContain("down@example.com");
  });

  it("with a receiver that never answers: the sign-up answers 201 before the receiver has answered anything", async () => {
    const receiver = await startReceiver(["hang"]);
    try {
      const { post, deliveries } = handlerNotifying(receiver.url, { timeoutMs: 300, retryDelaysMs: [] });
      const response = await post(jsonRequest(signupBody({ email: "slow@example.com" })));
      expect(response.status).toBe(201);
      expect((await storedEntries()).map((row) => row.email)).toEqual(["slow@example.com"]);
      // The delivery is still waiting on the receiver: the answer did not wait for it.
      let settled = false;
      void deliveries[0]!.then(() => (settled = true));
      await Promise.resolve();
      expect(settled).toBe(false);
      expect(await deliveries[0]).toMatchObject({ delivered: false, attempts: 1 });
      expect(errors.join("\n")).toContain("no answer within 300 ms");
    } finally {
      await receiver.close();
    }
  });

  it("does not retry an answer that will not change (4xx other than 408 and 429)", async () => {
    let calls = 0;
    const notify = createWebhookNotifier({
      url: "http://127.0.0.1:9/unused",
      secret: WEBHOOK_SECRET,
      retryDelaysMs: [1, 1],
      fetchImpl: async () => {
        calls += 1;
        return new Response(null, { status: 410 });
      },
    });
    const entry = { id: 1 } as EntryRecord;
    expect(await notify(entry)).toMatchObject({ delivered: false, attempts: 1 });
    expect(calls).toBe(1);
  });

  it("is configured by WAITLIST_WEBHOOK_URL with a required WAITLIST_WEBHOOK_SECRET", () => {
    expect(() => parseEnv({ WAITLIST_WEBHOOK_URL: "https://crm.example/hooks" })).toThrow(/WAITLIST_WEBHOOK_SECRET: must be set/);
    expect(() => parseEnv({ WAITLIST_WEBHOOK_URL: "ftp://crm.example", WAITLIST_WEBHOOK_SECRET: WEBHOOK_SECRET })).toThrow(
      /WAITLIST_WEBHOOK_URL/,
    );
    expect(parseEnv({ WAITLIST_WEBHOOK_URL: "https://crm.example/hooks", WAITLIST_WEBHOOK_SECRET: WEBHOOK_SECRET })).toMatchObject({
      WAITLIST_WEBHOOK_URL: "https://crm.example/hooks",
    });
  });
});
