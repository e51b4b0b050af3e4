/**
 * Deliveries stay exactly once when receivers are slow: two production servers
 * on one database with a short lease (3 s), an SMTP server that stalls the
 * first message for longer than the lease, and a webhook receiver that takes
 * its time to answer. Every email and every webhook must arrive, and only once: a
 * repeat is allowed only of an attempt the server says it cut off at its deadline
 * (on a machine busy enough to starve the sending thread, an answer can come in
 * after the cut-off: docs/operations.md, "What exactly once means here"), and
 * never of the stalled message, whose cut-off closes its connection.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import BetterSqlite3 from "better-sqlite3";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild, freshDatabase, LOAD_TEST_ENV, startSiteServer, type SiteServer } from "@/bench/support/site-server";
import { signUpOnce, sleep } from "./support";

const SMTP_PORT = 2592;
const LEASE_SECONDS = 3;
/** Longer than the lease: the attempt must be cut off (at half the lease) and retried, not sent twice. */
const STALL_MS = 7_000;
const WEBHOOK_ANSWER_MS = 800;
const WEBHOOK_SECRET = `whsec_${Buffer.from("faults-deliveries-webhook-secret-012345").toString("base64")}`;

/** Counts each message the server accepted (answered 250 on a connection still open), by Message-ID. */
function startStallingSmtp() {
  const accepted = new Map<string, number>();
  const closed = new Set<string>();
  let stalled = 0;
  let stalledId = "";
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onClose(session) {
      closed.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(Buffer.concat(chunks).toString("utf8"))?.[1] ?? "?";
        if (stalled === 0) {
          stalled += 1;
          stalledId = id;
          await sleep(STALL_MS);
        }
        // The client gave up on this conversation: the message was never accepted.
        if (closed.has(session.id)) return callback(new Error("connection closed before the message was accepted"));
        accepted.set(id, (accepted.get(id) ?? 0) + 1);
        callback();
      });
    },
  });
  return {
    accepted,
    stalledCount: () => stalled,
    stalledId: () => stalledId,
    listen: () => new Promise<void>((resolve) => server.listen(SMTP_PORT, "127.0.0.1", resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function startSlowReceiver() {
  const accepted = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", async () => {
      await sleep(WEBHOOK_ANSWER_MS);
      const id = String(request.headers["webhook-id"]);
      accepted.set(id, (accepted.get(id) ?? 0) + 1);
      response.statusCode = 204;
      response.end();
    });
  });
  return {
    accepted,
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`)),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const smtp = startStallingSmtp();
const receiver = startSlowReceiver();
let servers: SiteServer[] = [];
let file: string;

beforeAll(async () => {
  ensureBuild();
  await smtp.listen();
  const webhookUrl = await receiver.listen();
  file = freshDatabase("faults-deliveries");
  const env = (instance: string) => ({
    ...LOAD_TEST_ENV,
    TRUST_PROXY_HOPS: "1",
    SITE_URL: "http://127.0.0.1:3281",
    SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
    MAIL_FROM: "FieldCrew <hello@fieldcrew.app>",
    WAITLIST_WEBHOOK_URL: webhookUrl,
    WAITLIST_WEBHOOK_SECRET: WEBHOOK_SECRET,
    WAITLIST_DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS),
    WAITLIST_DELIVERY_RETRY_SECONDS: Array(20).fill("0.5").join(","),
    INSTANCE_ID: instance,
  });
  servers = await Promise.all([
    startSiteServer({ port: 3281, databaseFile: file, env: env("a"), output: true }),
    startSiteServer({ port: 3282, databaseFile: file, env: env("b"), output: true }),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await smtp.close();
  await receiver.close();
});

function outbox(): { id: string; kind: string; status: string; attempts: number }[] {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT id, kind, status, attempts FROM outbox").all() as {
      id: string;
      kind: string;
      status: string;
      attempts: number;
    }[];
  } finally {
    db.close();
  }
}

describe("two instances, a short lease and slow receivers", () => {
  it("deliver every email and every webhook once, the stalled email after a retry", async () => {
    for (let i = 0; i < 20; i += 1) {
      expect((await signUpOnce(servers[i % 2]!.url, `198.51.100.${40 + i}`, "slow-receivers")).status).toBe(201);
    }
    await expect.poll(() => outbox().filter((row) => row.status === "delivered").length, { timeout: 60_000, interval: 500 }).toBe(40);
    // Long enough for a stalled attempt or a lapsed lease to have caused a second send.
    await sleep(STALL_MS);

    const rows = outbox();
    const emails = rows.filter((row) => row.kind === "email");
    const webhooks = rows.filter((row) => row.kind === "webhook");
    expect(emails).toHaveLength(20);
    expect(webhooks).toHaveLength(20);
    expect(smtp.stalledCount()).toBe(1);
    const log = servers.map((server) => server.output()).join("\n");
    const cutOff = new Set([...log.matchAll(/"fault":"delivery_attempt_deadline".*?"delivery_id":"([^"]+)"/g)].map((match) => match[1]));
    // Rows that did not arrive once, leaving out those that arrived twice after a logged cut-off.
    const notOnce = (ids: string[], countOf: (id: string) => number) =>
      ids.filter((id) => countOf(id) !== 1 && !(countOf(id) === 2 && cutOff.has(id))).map((id) => `${id}: ${countOf(id)}`);
    const host = "127.0.0.1";
    const emailIds = emails.map((row) => row.id);
    const webhookIds = webhooks.map((row) => row.id);
    expect(notOnce(emailIds, (id) => smtp.accepted.get(`<${id}@${host}>`) ?? 0)).toEqual([]);
    expect(smtp.accepted.size).toBe(20);
    expect(notOnce(webhookIds, (id) => receiver.accepted.get(id) ?? 0)).toEqual([]);
    expect(receiver.accepted.size).toBe(20);
    // The stalled one was cut off at its deadline and tried again, and arrived once: the cut-off closed its connection.
    expect(emailIds.map((id) => `<${id}@${host}>`)).toContain(smtp.stalledId());
    expect(smtp.accepted.get(smtp.stalledId())).toBe(1);
    expect(Math.max(...emails.map((row) => row.attempts))).toBeGreaterThanOrEqual(2);
    expect(log).toMatch(/"fault":"delivery_attempt_deadline"/);
  }, 120_000);
});
