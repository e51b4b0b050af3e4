/**
 * Bounces (issues 39 and 61): only a mailbox that is gone is suppressed, and only on the word of
 * the mail system that refused it, or of a report tied to a message the site sent to it.
 *
 * - While sending: a 5xx at RCPT TO with a mailbox-gone code (5.1.1, 5.1.10, 5.2.1, ...)
 *   suppresses; policy, relay, sender, system and content codes, a 5xx outside RCPT TO, or a 5xx
 *   without an enhanced code fail that one message and are counted as a sending problem.
 * - Later: a report (RFC 3464/6533) counts only when it came back to the message's own tagged
 *   envelope sender, names that message's recipient, and was not counted before. Forged reports
 *   (no tie, a made-up tie, a tie to another entry's message, a replay) change nothing.
 *
 * Through a real SMTP server, the real delivery worker and channel, and the real bounce route.
 */
process.env.MAIL_BOUNCE_SECRET = "bounce-secret-for-the-tests-0123456789abcdef";
process.env.MAIL_BOUNCE_ADDRESS = "bounces@fieldcrew.example";

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as route from "@/app/api/mail/bounces/route";
import { getDatabase } from "@/lib/db";
import { changeFollowUp } from "@/lib/follow-up/changes";
import { captureLog } from "@/lib/log";
import { deliveryIdOfBounceAddress, taggedBounceAddress } from "@/lib/mail/bounce-address";
import { listPage, parseListQuery } from "@/lib/console/list";
import { overview } from "@/lib/console/overview";
import { entryDetail, stats } from "@/lib/console/queries";
import { DeliveryWorker } from "@/lib/outbox/worker";
import { recordRefusals, sendingProblems, suppressEntries } from "@/lib/waitlist/bounces";
import { confirmationEmailChannel } from "@/lib/waitlist/confirmation-email";
import { MAIL_SUPPRESSED_PROBLEM } from "@/lib/waitlist/entry-link";
import { oweLinkAgain } from "@/lib/waitlist/link-again";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { setUpTestDatabase } from "../support/database";
import { testSecret } from "../support/challenge";
import { signedUpOwing } from "../support/deliveries";
import { validSignup } from "../support/requests";

const { url: databaseUrl } = setUpTestDatabase();
const BOUNCES = process.env.MAIL_BOUNCE_ADDRESS!;

/**
 * A mail server that answers by the recipient's first label: "gone." 550 5.1.1, "busy." 451
 * 4.2.1, "relay." 554 5.7.1, "unknown." a bare 550, "content." 550 5.1.7 at DATA; and the sender
 * with 553 5.1.8 while refuseSender is set. It keeps every accepted message's envelope.
 */
let server: SMTPServer;
let smtpUrl: string;
let refuseSender = false;
const accepted: { to: string; from: string }[] = [];
const refusal = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });
beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 1_000,
    onMailFrom(_address, _session, callback) {
      callback(refuseSender ? refusal(553, "5.1.8 Sender address rejected: domain not found") : undefined);
    },
    onRcptTo(address, _session, callback) {
      const local = address.address;
      if (local.startsWith("gone.")) return callback(refusal(550, "5.1.1 No such user here"));
      if (local.startsWith("busy.")) return callback(refusal(451, "4.2.1 Try again later"));
      if (local.startsWith("relay.")) return callback(refusal(554, `5.7.1 <${local}>: Relay access denied`));
      if (local.startsWith("unknown.")) return callback(refusal(550, "User unknown"));
      callback();
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        if (to.some((address) => address.startsWith("content."))) return callback(refusal(550, "5.1.7 Message refused by policy"));
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        accepted.push(...to.map((address) => ({ to: address, from })));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  smtpUrl = `smtp://127.0.0.1:${(server.server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const worker = () =>
  new DeliveryWorker({
    channels: {
      email: confirmationEmailChannel({
        smtpUrl,
        from: "FieldCrew <hello@fieldcrew.example>",
        secret: testSecret(),
        siteUrl: "http://localhost:3000",
        returnPath: BOUNCES,
      }),
    },
    owner: "bounce-test",
    retryDelaysMs: [1_000],
    leaseMs: 60_000,
    maxInFlight: 200,
    onRefused: (database, refused) => recordRefusals(database, refused),
  });

const unique = () => `${Date.now()}.${Math.random().toString(36).slice(2)}`;

async function signedUp(local: string, domain = "example.com") {
  const email = local.includes("@") ? local : `${local}.${unique()}@${domain}`;
  const result = await signedUpOwing(waitlistSignupSchema.parse(validSignup({ email })), ["email"]);
  if (result.outcome !== "created") throw new Error(result.outcome);
  return getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: result.entry.id } });
}

const entryOf = (id: number) => getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id } });
const emailsOf = (entryId: number) =>
  getDatabase().outboxMessage.findMany({ where: { entryId, kind: "email" }, orderBy: { createdAt: "asc" } });

/** An entry whose confirmation went out; `envelopeFrom` is the tagged address its report comes back to. */
async function mailed(local: string) {
  const entry = await signedUp(local);
  await worker().sweep();
  const [email] = await emailsOf(entry.id);
  expect(email?.status).toBe("delivered");
  const envelopeFrom = accepted.find((message) => message.to === entry.email)!.from;
  return { entry, deliveryId: email!.id, envelopeFrom };
}

type Recipient = { address: string; original?: string; action?: string; status?: string; type?: string };

/** A report as a mail server sends one back (multipart/report); `global` is RFC 6533's UTF-8 form. */
function notification(recipients: Recipient[], options: { global?: boolean; headers?: string[]; charset?: string } = {}): string {
  const part = options.global ? "message/global-delivery-status" : "message/delivery-status";
  return [
    ...(options.headers ?? []),
    "From: Mail Delivery System <MAILER-DAEMON@mx.example.com>",
    `To: ${BOUNCES}`,
    "Subject: Undelivered Mail Returned to Sender",
    "MIME-Version: 1.0",
    `Content-Type: multipart/report; report-type=delivery-status; boundary="b1"`,
    "",
    "--b1",
    `Content-Type: text/plain; charset=${options.charset ?? "us-ascii"}`,
    "Content-Transfer-Encoding: 8bit",
    "",
    "Your message could not be delivered.",
    "",
    "--b1",
    `Content-Type: ${part}`,
    "",
    "Reporting-MTA: dns; mx.example.com",
    "Arrival-Date: Thu, 26 Nov 2026 09:00:00 +0000",
    "",
    ...recipients.flatMap((recipient) => [
      `Final-Recipient: ${recipient.type ?? "rfc822"}; ${recipient.address}`,
      ...(recipient.original ? [`Original-Recipient: rfc822; ${recipient.original}`] : []),
      `Action: ${recipient.action ?? "failed"}`,
      `Status: ${recipient.status ?? "5.1.1"}`,
      "Diagnostic-Code: smtp; 550 5.1.1 user unknown",
      "",
    ]),
    "--b1--",
    "",
  ].join("\r\n");
}

/** The route, as the documented pipe calls it: the secret, and the address the report arrived at. */
const postBounce = (body: string | Uint8Array, options: { to?: string; secret?: string | null } = {}) => {
  const secret = options.secret === undefined ? process.env.MAIL_BOUNCE_SECRET! : options.secret;
  return route.POST(
    new Request("http://localhost:3000/api/mail/bounces", {
      method: "POST",
      headers: {
        "content-type": "message/rfc822",
        ...(secret ? { authorization: `Bearer ${secret}` } : {}),
        ...(options.to ? { "x-original-to": options.to } : {}),
      },
      body: body as BodyInit,
    }),
  );
};

describe("a recipient refused while sending", () => {
  it("is suppressed at once for a mailbox that is gone (5.1.1 at RCPT TO): no retry, nothing more of any kind", async () => {
    const gone = await signedUp("gone");
    await worker().sweep();
    expect((await emailsOf(gone.id)).map((row) => [row.status, row.lastError])).toEqual([["failed", "SMTP 550 5.1.1 at RCPT TO"]]);
    expect(await entryOf(gone.id)).toMatchObject({ mailSuppressedReason: "SMTP 550 5.1.1 at RCPT TO", mailSuppressedAt: expect.any(Date) });

    // Later mail is not owed (a link asked for again, an invitation) nor sent.
    expect(await oweLinkAgain(getDatabase(), gone.email)).toBe(false);
    await changeFollowUp(
      getDatabase(),
      [gone.id],
      { to: "invited" },
      { email: "ana@fieldcrew.app", operatorId: null },
      { deliveries: ["email"] },
    );
    expect(await emailsOf(gone.id)).toHaveLength(1);
    expect(accepted.filter((message) => message.to === gone.email)).toEqual([]);
  });

  it("is not suppressed when the refusal is for now (4xx): the email is tried again", async () => {
    const busy = await signedUp("busy");
    await worker().sweep();
    expect((await emailsOf(busy.id)).map((row) => row.status)).toEqual(["pending"]);
    expect((await entryOf(busy.id)).mailSuppressedAt).toBeNull();
  });

  it("gives up what was still pending for the entry, and a claimed one is not sent", async () => {
    const gone = await signedUp("gone");
    await getDatabase().outboxMessage.create({
      data: {
        id: crypto.randomUUID(),
        kind: "email",
        entryId: gone.id,
        event: "invitation",
        payload: "{}",
        nextAttemptAt: new Date(Date.now() + 3_600_000),
        createdAt: new Date(),
      },
    });
    await worker().sweep();
    expect((await emailsOf(gone.id)).map((row) => [row.status, row.lastError])).toEqual([
      ["failed", "SMTP 550 5.1.1 at RCPT TO"],
      ["failed", MAIL_SUPPRESSED_PROBLEM],
    ]);
  });

  it("a relay that refuses everyone (554 5.7.1 at RCPT TO) suppresses nobody: a sending problem, logged and shown", async () => {
    const log = captureLog();
    const entries = [];
    try {
      for (let i = 0; i < 20; i += 1) entries.push(await signedUp("relay"));
      await worker().sweep();
    } finally {
      log.stop();
    }
    for (const entry of entries) {
      expect((await emailsOf(entry.id)).map((row) => [row.status, row.lastError])).toEqual([["failed", "SMTP 554 5.7.1 at RCPT TO"]]);
      expect((await entryOf(entry.id)).mailSuppressedAt).toBeNull();
    }
    expect(log.lines.filter((line) => line.fault === "mail_bounced")).toEqual([]);
    const refused = log.lines.filter((line) => line.fault === "mail_sending_refused");
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.at(-1)).toMatchObject({ level: "error", code: "554 5.7.1 at RCPT TO", last_hour: 20 });
    // No recipient's address in the log: the server's text named it, the code does not.
    expect(log.text()).not.toContain("@example.com");

    expect(await sendingProblems(getDatabase())).toContainEqual({ code: "554 5.7.1 at RCPT TO", messages: 20 });
    expect((await overview(getDatabase(), { days: 30, split: "source" })).sendingProblems).toContainEqual({
      code: "554 5.7.1 at RCPT TO",
      messages: 20,
    });
  });

  it("codes about the sender, the content or none at all refuse that one message and suppress nobody", async () => {
    refuseSender = true;
    const sender = await signedUp("sender");
    try {
      await worker().sweep();
    } finally {
      refuseSender = false;
    }
    const content = await signedUp("content");
    const unknown = await signedUp("unknown");
    await worker().sweep();
    const outcomes = await Promise.all([sender, content, unknown].map(async (entry) => (await emailsOf(entry.id))[0]!.lastError));
    expect(outcomes).toEqual(["SMTP 553 5.1.8 at MAIL FROM", "SMTP 550 5.1.7 at DATA", "SMTP 550 at RCPT TO"]);
    for (const entry of [sender, content, unknown]) expect((await entryOf(entry.id)).mailSuppressedAt).toBeNull();
  });
});

describe("each message's own envelope sender", () => {
  it("is the bounce mailbox tagged with the delivery's id, which only the site's secret makes", async () => {
    const { deliveryId, envelopeFrom } = await mailed("tagged");
    expect(envelopeFrom).toMatch(/^bounces\+[a-z2-7]{42}@fieldcrew\.example$/);
    expect(envelopeFrom.split("@")[0]!.length).toBeLessThanOrEqual(64);
    expect(deliveryIdOfBounceAddress(envelopeFrom, BOUNCES, testSecret())).toBe(deliveryId);
    expect(deliveryIdOfBounceAddress(envelopeFrom.toUpperCase(), BOUNCES, testSecret())).toBe(deliveryId);
    expect(deliveryIdOfBounceAddress(envelopeFrom, BOUNCES, "another-secret-of-the-same-kind-0123456789")).toBeNull();
    expect(
      deliveryIdOfBounceAddress(
        envelopeFrom.replace(/[a-z2-7]@/, (c) => (c[0] === "a" ? "b@" : "a@")),
        BOUNCES,
        testSecret(),
      ),
    ).toBeNull();
    expect(deliveryIdOfBounceAddress(BOUNCES, BOUNCES, testSecret())).toBeNull();
  });
});

describe("a report that comes back later", () => {
  it("is taken only with the bounce secret", async () => {
    const { entry, envelopeFrom } = await mailed("secret");
    for (const secret of [null, "wrong-secret-of-the-same-length-0123456789abcd"]) {
      const refused = await postBounce(notification([{ address: entry.email }]), { to: envelopeFrom, secret });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: "secret_required", error: expect.stringContaining("Authorization: Bearer") });
    }
    expect((await entryOf(entry.id)).mailSuppressedAt).toBeNull();
  });

  it("tied to the message and naming its recipient, suppresses a mailbox that is gone, once", async () => {
    const { entry, deliveryId, envelopeFrom } = await mailed("later");
    const report = notification([{ address: entry.email.toUpperCase(), status: "5.1.1" }]);
    const answer = await postBounce(report, { to: envelopeFrom });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ reports: 1, suppressed: 1, ignored: 0 });
    expect(await entryOf(entry.id)).toMatchObject({ mailSuppressedReason: "DSN 5.1.1" });
    expect((await getDatabase().outboxMessage.findUniqueOrThrow({ where: { id: deliveryId } })).bouncedAt).toEqual(expect.any(Date));

    // Replayed after an operator lifted it: counted once already, so it changes nothing.
    await getDatabase().waitlistEntry.update({ where: { id: entry.id }, data: { mailSuppressedAt: null, mailSuppressedReason: null } });
    const replay = await postBounce(report, { to: envelopeFrom });
    expect(await replay.json()).toMatchObject({ suppressed: 0, reason: "already_counted" });
    expect((await entryOf(entry.id)).mailSuppressedAt).toBeNull();
  });

  it("reads the address it arrived at from what the mail server wrote into it when the pipe does not say", async () => {
    const { entry, envelopeFrom } = await mailed("delivered-to");
    const answer = await postBounce(notification([{ address: entry.email }], { headers: [`Delivered-To: ${envelopeFrom}`] }));
    expect(await answer.json()).toEqual({ reports: 1, suppressed: 1, ignored: 0 });
  });

  it("forged: with no tie, or a made-up one, changes nothing and is logged as one line", async () => {
    const victims = [await mailed("victim"), await mailed("victim"), await mailed("victim")];
    const report = notification(victims.map(({ entry }) => ({ address: entry.email })));
    const log = captureLog();
    try {
      for (const to of [
        undefined,
        BOUNCES,
        taggedBounceAddress(BOUNCES, victims[0]!.deliveryId, "not-the-sites-secret-0123456789abcdef"),
      ]) {
        const answer = await postBounce(report, { to });
        expect(answer.status).toBe(200);
        expect(await answer.json()).toEqual({ reports: 3, suppressed: 0, ignored: 3, reason: "not_tied" });
      }
    } finally {
      log.stop();
    }
    for (const { entry } of victims) expect((await entryOf(entry.id)).mailSuppressedAt).toBeNull();
    const ignored = log.lines.filter((line) => line.fault === "bounce_ignored");
    expect(ignored).toHaveLength(3);
    expect(ignored[0]).toMatchObject({ reason: "not_tied", recipients: 3 });
    expect(log.text()).not.toContain("@example.com");
  });

  it("tied to the sender's own message, it cannot suppress anyone else, nor another spelling of the same mailbox", async () => {
    const victim = await signedUp(`dave.${unique()}@gmail.com`);
    const attacker = await mailed("attacker");
    // Hundreds of addresses the site never mailed, the victim, and a variant that normalises to the victim's mailbox.
    const strangers = Array.from({ length: 500 }, (_, i) => ({ address: `s${i}@strangers.example` }));
    const variant = `d.a.v.e+x@googlemail.com`;
    const report = notification([...strangers, { address: victim.email }, { address: variant }]);
    const answer = await postBounce(report, { to: attacker.envelopeFrom });
    expect(await answer.json()).toEqual({ reports: 502, suppressed: 0, ignored: 502, reason: "other_address" });
    expect((await entryOf(victim.id)).mailSuppressedAt).toBeNull();
    expect((await entryOf(attacker.entry.id)).mailSuppressedAt).toBeNull();
    // The attacker's own message is still uncounted: a real report about it would still count.
    expect((await getDatabase().outboxMessage.findUniqueOrThrow({ where: { id: attacker.deliveryId } })).bouncedAt).toBeNull();
  });

  it("a policy code (5.7.1 after a DKIM or DMARC failure) suppresses nobody and counts as a sending problem", async () => {
    const { entry, envelopeFrom } = await mailed("dmarc");
    const answer = await postBounce(notification([{ address: entry.email, status: "5.7.1" }]), { to: envelopeFrom });
    expect(await answer.json()).toEqual({ reports: 1, suppressed: 0, ignored: 0 });
    expect((await entryOf(entry.id)).mailSuppressedAt).toBeNull();
    expect(await sendingProblems(getDatabase(), new Date(), 1)).toContainEqual({ code: "DSN 5.7.1", messages: expect.any(Number) });
  });

  it("leaves a delay, a temporary status and a message that is no report alone, and a later final report still counts", async () => {
    const { entry, envelopeFrom } = await mailed("delayed");
    const say = async (body: string) => (await postBounce(body, { to: envelopeFrom })).json();
    expect(await say(notification([{ address: entry.email, action: "delayed", status: "4.4.1" }]))).toEqual({
      reports: 1,
      suppressed: 0,
      ignored: 0,
    });
    expect(await say(notification([{ address: entry.email, status: "4.4.7" }]))).toMatchObject({ suppressed: 0 });
    expect(await say("Subject: hello\r\n\r\nNot a bounce.\r\n")).toEqual({ reports: 0, suppressed: 0, ignored: 0 });
    expect((await entryOf(entry.id)).mailSuppressedAt).toBeNull();
    expect(await say(notification([{ address: entry.email, status: "5.2.1" }]))).toMatchObject({ suppressed: 1 });
  });

  it("reads 8-bit reports and RFC 6533's message/global-delivery-status", async () => {
    const latin = await mailed("latin");
    const eightBit = Buffer.from(
      notification([{ address: latin.entry.email }], { charset: "iso-8859-1" }).replace("could not", "n'a pas pu être"),
      "latin1",
    );
    expect(eightBit.includes(0xea)).toBe(true);
    const answer = await postBounce(eightBit, { to: latin.envelopeFrom });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ suppressed: 1 });

    const global = await mailed("global");
    const utf8 = notification([{ address: global.entry.email, type: "utf-8", status: "5.1.10" }], { global: true });
    expect(await (await postBounce(utf8, { to: global.envelopeFrom })).json()).toMatchObject({ suppressed: 1 });
    expect((await entryOf(global.entry.id)).mailSuppressedReason).toBe("DSN 5.1.10");
  });

  it("answers 413, not 500, for a report over 64 KiB or with more MIME parts than the parser takes", async () => {
    expect((await postBounce("x".repeat(65 * 1024))).status).toBe(413);
    const parts = Array.from({ length: 1_100 }, () => "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n").join("");
    const many = `MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${parts}--b--\r\n`;
    expect(Buffer.byteLength(many)).toBeLessThan(64 * 1024);
    const answer = await postBounce(many);
    expect(answer.status).toBe(413);
    expect(await answer.json()).toMatchObject({ code: "too_large" });
  });
});

describe("the documented pipe (docs/examples/mail-bounce-pipe.sh)", () => {
  const PIPE = "docs/examples/mail-bounce-pipe.sh";
  const work = mkdtempSync(path.join(tmpdir(), "waitlist-bounce-pipe-"));
  let site: Server;
  let url = "";
  beforeAll(async () => {
    // The real route behind a real HTTP server, as the mail server's curl reaches it.
    site = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const answer = await route.POST(
        new Request(`http://localhost${request.url}`, {
          method: request.method,
          headers: request.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        }),
      );
      response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" });
      response.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/api/mail/bounces`;
  });
  afterAll(() => {
    site.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** The curl configuration the docs describe: the secret in a file of mode 0600, never on a command line. */
  function curlConfig(secret: string): string {
    const file = path.join(work, `bounce-${Math.random().toString(36).slice(2)}.curl`);
    writeFileSync(file, `header = "Authorization: Bearer ${secret}"\n`, { mode: 0o600 });
    return file;
  }

  /** The script as the mail server runs it, without blocking this process (the site answers from here). */
  function pipe(report: string, env: Record<string, string>, pathPrefix = ""): Promise<{ status: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn("sh", [PIPE, url], { env: { ...process.env, PATH: `${pathPrefix}${process.env.PATH}`, ...env } });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
      child.stdout.resume();
      child.stdin.on("error", () => undefined);
      child.stdin.end(report);
      child.on("close", (status) => resolve({ status, stderr }));
    });
  }

  it("hands a report to the site with the address it arrived at, and exits 0", async () => {
    const { entry, envelopeFrom } = await mailed("piped");
    const run = await pipe(notification([{ address: entry.email }]), {
      ORIGINAL_RECIPIENT: envelopeFrom,
      FIELDCREW_BOUNCE_CURL_CONFIG: curlConfig(process.env.MAIL_BOUNCE_SECRET!),
    });
    expect(run.status, run.stderr).toBe(0);
    expect((await entryOf(entry.id)).mailSuppressedReason).toBe("DSN 5.1.1");
  });

  it("never puts the secret on a command line, where ps shows it", async () => {
    // A curl that records how it was called, in place of the real one.
    const bin = path.join(work, "bin");
    mkdirSync(bin, { recursive: true });
    const calls = path.join(work, "calls.txt");
    writeFileSync(path.join(bin, "curl"), `#!/bin/sh\necho "$@" >> "${calls}"\ncat > /dev/null\nprintf 200\n`, { mode: 0o755 });
    const run = await pipe(
      "Subject: x\r\n\r\nx\r\n",
      { FIELDCREW_BOUNCE_CURL_CONFIG: curlConfig(process.env.MAIL_BOUNCE_SECRET!) },
      `${bin}:`,
    );
    expect(run.status, run.stderr).toBe(0);
    const called = readFileSync(calls, "utf8");
    expect(called).toContain("--config");
    expect(called).not.toContain(process.env.MAIL_BOUNCE_SECRET!);
    expect(readFileSync(PIPE, "utf8")).not.toMatch(/Bearer [^<]/);
  });

  it("keeps a report the site refuses for now in the mail server's queue (75), and drops one it cannot read (65)", async () => {
    const wrongSecret = await pipe(notification([{ address: "a@example.com" }]), {
      FIELDCREW_BOUNCE_CURL_CONFIG: curlConfig("x".repeat(40)),
    });
    expect(wrongSecret.status).toBe(75);
    const tooManyParts = `MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${"--b\r\n\r\nx\r\n".repeat(1_100)}--b--\r\n`;
    const unreadable = await pipe(tooManyParts, { FIELDCREW_BOUNCE_CURL_CONFIG: curlConfig(process.env.MAIL_BOUNCE_SECRET!) });
    expect(unreadable.status).toBe(65);
    expect(unreadable.stderr).toContain("could not read this report (HTTP 413)");
    // Over 64 KiB: the first 64 KiB are handed on, where the report's recipients are.
    const { entry, envelopeFrom } = await mailed("long");
    const long = notification([{ address: entry.email }]).replace(
      "--b1--",
      `--b1\r\nContent-Type: text/plain\r\n\r\n${"y".repeat(100_000)}\r\n--b1--`,
    );
    const run = await pipe(long, {
      ORIGINAL_RECIPIENT: envelopeFrom,
      FIELDCREW_BOUNCE_CURL_CONFIG: curlConfig(process.env.MAIL_BOUNCE_SECRET!),
    });
    expect(run.status, run.stderr).toBe(0);
    expect((await entryOf(entry.id)).mailSuppressedAt).toEqual(expect.any(Date));
  });
});

describe("what operators see and do", () => {
  it("the entry's page, the list's filter, the overview and stats show it; mail unsuppress lifts it, audited", async () => {
    const entry = await signedUp("shown");
    await suppressEntries(getDatabase(), [{ entryId: entry.id, reason: "SMTP 550 5.1.1 at RCPT TO" }]);

    expect((await entryDetail(getDatabase(), entry.id))!.mailSuppressed).toMatchObject({ reason: "SMTP 550 5.1.1 at RCPT TO" });
    const bounced = await listPage(getDatabase(), parseListQuery(new URLSearchParams({ mail: "bounced" })).query);
    expect(bounced.entries.map((row) => row.id)).toContain(entry.id);
    const unsubscribed = await listPage(getDatabase(), parseListQuery(new URLSearchParams({ mail: "unsubscribed" })).query);
    expect(unsubscribed.entries.map((row) => row.id)).not.toContain(entry.id);
    expect((await overview(getDatabase(), { days: 30, split: "source" })).mailSuppressed).toBeGreaterThanOrEqual(1);
    expect((await stats(getDatabase())).mailSuppressed).toBeGreaterThanOrEqual(1);

    const lift = (email: string) =>
      spawnSync(process.execPath, ["scripts/waitlist.mjs", "mail", "unsuppress", "--email", email], {
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: databaseUrl },
      });
    const lifted = lift(entry.email);
    expect(lifted.status, lifted.stderr).toBe(0);
    expect((await entryOf(entry.id)).mailSuppressedAt).toBeNull();
    expect((await getDatabase().operatorAction.findMany({ where: { entryId: entry.id } })).map((row) => row.action)).toEqual([
      "mail_suppression_lifted",
    ]);
    expect(lift(entry.email).status).toBe(1);
  });
});
