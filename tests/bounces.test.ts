/**
 * Bounces (issue 39): a recipient the mail server refuses for good while sending (SMTP 5xx at RCPT
 * TO), or one a delivery status notification (RFC 3464) reports failed later, is suppressed: no
 * retry, no later message of any kind, shown on the entry's page, as a list filter, in the
 * overview and in `stats`; an operator lifts it, audited. Through a real SMTP server that refuses
 * one mailbox, the real delivery worker and channel, and the real bounce route.
 */
process.env.MAIL_BOUNCE_SECRET = "bounce-secret-for-the-tests-0123456789abcdef";

import { spawnSync } from "node:child_process";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as route from "@/app/api/mail/bounces/route";
import { getDatabase } from "@/lib/db";
import { changeFollowUp } from "@/lib/follow-up/changes";
import { listPage, parseListQuery } from "@/lib/operator/list";
import { overview } from "@/lib/operator/overview";
import { entryDetail, stats } from "@/lib/operator/queries";
import { DeliveryWorker } from "@/lib/outbox/worker";
import { suppressEntries } from "@/lib/waitlist/bounces";
import { confirmationEmailChannel } from "@/lib/waitlist/confirmation-email";
import { MAIL_SUPPRESSED_PROBLEM } from "@/lib/waitlist/entry-link";
import { oweLinkAgain } from "@/lib/waitlist/link-again";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { setUpTestDatabase } from "./support/database";
import { testSecret } from "./support/challenge";
import { signedUpOwing } from "./support/deliveries";
import { validSignup } from "./support/requests";

const { url: databaseUrl } = setUpTestDatabase();

/** A mail server that refuses mailboxes starting with "gone." for good, "busy." for now, and takes the rest. */
let server: SMTPServer;
let smtpUrl: string;
const accepted: string[] = [];
beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 1_000,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith("gone.")) return callback(Object.assign(new Error("5.1.1 No such user here"), { responseCode: 550 }));
      if (address.address.startsWith("busy.")) return callback(Object.assign(new Error("4.2.1 Try again later"), { responseCode: 451 }));
      callback();
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        accepted.push(...session.envelope.rcptTo.map((rcpt) => rcpt.address));
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
      }),
    },
    owner: "bounce-test",
    retryDelaysMs: [1_000],
    leaseMs: 60_000,
    onRecipientRefused: (database, refused) => suppressEntries(database, refused),
  });

async function signedUp(local: string) {
  const email = `${local}.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
  const result = await signedUpOwing(waitlistSignupSchema.parse(validSignup({ email })), ["email"]);
  if (result.outcome !== "created") throw new Error(result.outcome);
  return getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: result.entry.id } });
}

const entryOf = (id: number) => getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id } });
const emailsOf = (entryId: number) =>
  getDatabase().outboxMessage.findMany({ where: { entryId, kind: "email" }, orderBy: { createdAt: "asc" } });

/** A delivery status notification as a mail server sends one back (RFC 3464: multipart/report). */
function notification(recipient: string, action = "failed", status = "5.1.1"): string {
  return [
    "From: Mail Delivery System <MAILER-DAEMON@mx.example.com>",
    "To: bounces@fieldcrew.example",
    "Subject: Undelivered Mail Returned to Sender",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
    "",
    "--b1",
    "Content-Type: text/plain",
    "",
    "Your message could not be delivered.",
    "",
    "--b1",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.example.com",
    "Arrival-Date: Thu, 26 Nov 2026 09:00:00 +0000",
    "",
    `Final-Recipient: rfc822; ${recipient}`,
    `Action: ${action}`,
    `Status: ${status}`,
    "Diagnostic-Code: smtp; 550 5.1.1 user unknown",
    "",
    "--b1--",
    "",
  ].join("\r\n");
}

const postBounce = (body: string, secret: string | null = process.env.MAIL_BOUNCE_SECRET!) =>
  route.POST(
    new Request("http://localhost:3000/api/mail/bounces", {
      method: "POST",
      headers: { "content-type": "message/rfc822", ...(secret ? { authorization: `Bearer ${secret}` } : {}) },
      body,
    }),
  );

describe("a recipient refused while sending", () => {
  it("is suppressed at once: no retry, and nothing more of any kind is sent to it", async () => {
    const gone = await signedUp("gone");
    await worker().sweep();
    expect((await emailsOf(gone.id)).map((row) => [row.status, row.lastError])).toEqual([["failed", "SMTP 550"]]);
    expect(await entryOf(gone.id)).toMatchObject({ mailSuppressedReason: "SMTP 550", mailSuppressedAt: expect.any(Date) });

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
    expect(accepted.filter((address) => address === gone.email)).toEqual([]);
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
      ["failed", "SMTP 550"],
      ["failed", MAIL_SUPPRESSED_PROBLEM],
    ]);
  });
});

describe("a bounce that comes back later (RFC 3464)", () => {
  it("is taken only with the bounce secret, and suppresses the mailbox it reports failed", async () => {
    const entry = await signedUp("later");
    for (const secret of [null, "wrong-secret-of-the-same-length-0123456789abcd"]) {
      const refused = await postBounce(notification(entry.email), secret);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: "secret_required", error: expect.stringContaining("Authorization: Bearer") });
    }
    expect((await entryOf(entry.id)).mailSuppressedAt).toBeNull();

    const answer = await postBounce(notification(entry.email.toUpperCase()));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ reports: 1, suppressed: 1 });
    expect(await entryOf(entry.id)).toMatchObject({ mailSuppressedReason: "DSN 5.1.1" });
  });

  it("leaves a delay, a temporary status and a message that is no notification alone", async () => {
    const entry = await signedUp("delayed");
    expect(await (await postBounce(notification(entry.email, "delayed", "4.4.1"))).json()).toEqual({ reports: 1, suppressed: 0 });
    expect(await (await postBounce(notification(entry.email, "failed", "4.4.7"))).json()).toEqual({ reports: 1, suppressed: 0 });
    expect(await (await postBounce("Subject: hello\r\n\r\nNot a bounce.\r\n")).json()).toEqual({ reports: 0, suppressed: 0 });
    expect((await entryOf(entry.id)).mailSuppressedAt).toBeNull();
  });
});

describe("what operators see and do", () => {
  it("the entry's page, the list's filter, the overview and stats show it; mail unsuppress lifts it, audited", async () => {
    const entry = await signedUp("shown");
    await suppressEntries(getDatabase(), [{ entryId: entry.id, reason: "SMTP 550" }]);

    expect((await entryDetail(getDatabase(), entry.id))!.mailSuppressed).toMatchObject({ reason: "SMTP 550" });
    const bounced = await listPage(getDatabase(), parseListQuery(new URLSearchParams({ mail: "bounced" })).query);
    expect(bounced.entries.map((row) => row.id)).toContain(entry.id);
    const unsubscribed = await listPage(getDatabase(), parseListQuery(new URLSearchParams({ mail: "unsubscribed" })).query);
    expect(unsubscribed.entries.map((row) => row.id)).not.toContain(entry.id);
    expect((await overview(getDatabase(), { days: 30, split: "source" })).mailSuppressed).toBeGreaterThanOrEqual(1);
    expect((await stats(getDatabase())).mailSuppressed).toBeGreaterThanOrEqual(1);

    const lift = (email: string) =>
      spawnSync(process.execPath, ["lib/operator/waitlist.mjs", "mail", "unsuppress", "--email", email], {
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
