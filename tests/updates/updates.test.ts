/**
 * Updates to the list (issue 60), on a real migrated database with the real outbox and a real SMTP
 * server: sending queues the segment and nobody else, once per entry; nobody unsubscribed, bounced,
 * duplicate or joined later; a double post is one update; bad input is refused with nothing stored;
 * pausing holds the rows, resuming sends them, cancelling leaves them unsent; updates share the
 * hourly caps with the other emails and leave them a tenth; an unsubscribe from an update stops
 * every later email; the progress and the audit say what happened.
 */
import { simpleParser } from "mailparser";
import { beforeEach, describe, expect, it } from "vitest";
import * as unsubscribeRoute from "@/app/api/waitlist/unsubscribe/[token]/route";
import { getDatabase } from "@/lib/db";
import { removeById } from "@/lib/console/queries";
import { DeliveryWorker, type Channel } from "@/lib/outbox/worker";
import {
  countRecipients,
  changeUpdate,
  listUpdates,
  parseUpdate,
  previewUpdate,
  sendUpdate,
  updatesOfEntry,
  UpdateRefused,
  type UpdateInput,
} from "@/lib/updates/updates";
import { channelsFor } from "@/lib/waitlist/channels";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { setUpTestDatabase } from "../support/database";
import { testSecret } from "../support/challenge";
import { mailCatcherForTests } from "../support/mail-catcher";
import { validSignup } from "../support/requests";

setUpTestDatabase();
const mail = mailCatcherForTests();
const SITE = "http://localhost:3000";
const admin = { email: "admin@fieldcrew.app", operatorId: "op-1" };

async function join(fields: Record<string, unknown> = {}): Promise<number> {
  const result = await addToWaitlist(waitlistSignupSchema.parse(validSignup(fields)));
  if (result.outcome !== "created") throw new Error(result.outcome);
  return result.entry.id;
}

function input(
  segment: Record<string, string> = {},
  template = { subject: "We open on March 1, {{name}}", body: "Hello {{name}},\n\n{{company}} is in." },
): UpdateInput {
  const parsed = parseUpdate({ ...template, ...segment });
  if ("problems" in parsed) throw new Error(JSON.stringify(parsed.problems));
  return parsed.input;
}

const updateRows = (updateId: number) => getDatabase().outboxMessage.findMany({ where: { updateId }, orderBy: { entryId: "asc" } });

function worker(options: Partial<ConstructorParameters<typeof DeliveryWorker>[0]> = {}): DeliveryWorker {
  const channels = channelsFor({
    email: { smtpUrl: mail.smtpUrl(), from: "FieldCrew <hello@fieldcrew.app>", secret: testSecret(), siteUrl: SITE },
  });
  return new DeliveryWorker({
    channels: { update: channels.update!, email: channels.email! },
    owner: "test",
    retryDelaysMs: [1_000],
    leaseMs: 60_000,
    ...options,
  });
}

/** A header of a received message, unfolded, as the mail program reads it. */
async function headerOf(raw: Buffer, name: string): Promise<string | undefined> {
  const { headerLines } = await simpleParser(raw);
  return headerLines
    .find((line) => line.key === name)
    ?.line.replace(/^[^:]+:\s*/, "")
    .replace(/\r?\n\s+/g, "");
}

async function recipients(): Promise<string[]> {
  const messages = await Promise.all(mail.received().map((raw) => simpleParser(raw)));
  return messages.map((message) => (message.to && !Array.isArray(message.to) ? message.to.value[0]!.address! : "?")).sort();
}

describe("sending an update", () => {
  it("queues the segment in one statement, and nobody unsubscribed, bounced, duplicate or joined after", async () => {
    const hvac = [await join({ business_type: "hvac" }), await join({ business_type: "hvac" })];
    await join({ business_type: "plumbing" });
    const unsubscribed = await join({ business_type: "hvac" });
    const bounced = await join({ business_type: "hvac" });
    const duplicate = await join({ business_type: "hvac" });
    const database = getDatabase();
    await database.waitlistEntry.update({ where: { id: unsubscribed }, data: { unsubscribedAt: new Date() } });
    await database.waitlistEntry.update({
      where: { id: bounced },
      data: { mailSuppressedAt: new Date(), mailSuppressedReason: "SMTP 550" },
    });
    await database.waitlistEntry.update({ where: { id: duplicate }, data: { duplicateOf: hvac[0] } });

    expect(await countRecipients(database, input({ type: "hvac" }).segment)).toBe(2);
    const sent = await sendUpdate(database, input({ type: "hvac" }), "form-1", admin);
    const later = await join({ business_type: "hvac" });

    expect(sent).toMatchObject({ queued: 2, created: true });
    const rows = await updateRows(sent.id);
    expect(rows.map((row) => row.entryId)).toEqual(hvac);
    expect(rows.every((row) => row.kind === "update" && row.status === "pending")).toBe(true);
    // Each id is a UUID (the bounce address carries it) made of the update's prefix and the entry.
    for (const row of rows)
      expect(row.id).toMatch(
        new RegExp(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-${row.entryId.toString(16).padStart(12, "0")}$`),
      );
    const domains = (await database.waitlistEntry.findMany({ where: { id: { in: hvac } }, orderBy: { id: "asc" } })).map((e) =>
      e.email.slice(e.email.lastIndexOf("@") + 1).toLowerCase(),
    );
    expect(rows.map((row) => row.throttleKey)).toEqual(domains);
    expect(await database.outboxMessage.count({ where: { entryId: later, kind: "update" } })).toBe(0);

    const [audit] = await database.operatorAction.findMany({ where: { action: "update_sent" } });
    expect(audit!.actor).toBe(admin.email);
    expect(JSON.parse(audit!.detail!)).toEqual({
      update: sent.id,
      subject: "We open on March 1, {{name}}",
      recipients: 2,
      segment: "type hvac",
    });
  });

  it("never goes to an entry removed after it was queued: its row goes with it", async () => {
    const [kept, removed] = [await join({ utm_campaign: "removal" }), await join({ utm_campaign: "removal" })];
    const database = getDatabase();
    const sent = await sendUpdate(database, input({ campaign: "removal" }), "form-removal", admin);
    await removeById(database, removed, admin);
    expect((await updateRows(sent.id)).map((row) => row.entryId)).toEqual([kept]);
  });

  it("twice from one form (a double click) is one update", async () => {
    await join();
    const database = getDatabase();
    const [first, second] = await Promise.all([
      sendUpdate(database, input(), "same-form", admin),
      sendUpdate(database, input(), "same-form", admin),
    ]);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    expect(first.id).toBe(second.id);
    expect(await database.mailUpdate.count({ where: { requestKey: "same-form" } })).toBe(1);
    expect(await database.outboxMessage.count({ where: { updateId: first.id } })).toBe(first.queued);
    const audited = await database.operatorAction.findMany({ where: { action: "update_sent" } });
    expect(audited.filter((row) => JSON.parse(row.detail!).update === first.id)).toHaveLength(1);
  });

  it("to a segment of nobody is refused, and nothing is stored", async () => {
    await join({ business_type: "hvac" });
    const database = getDatabase();
    const before = await Promise.all([database.mailUpdate.count(), database.outboxMessage.count(), database.operatorAction.count()]);
    await expect(sendUpdate(database, input({ type: "landscaping", from: "2026-11-01" }), "form-2", admin)).rejects.toThrow(UpdateRefused);
    expect(await Promise.all([database.mailUpdate.count(), database.outboxMessage.count(), database.operatorAction.count()])).toEqual(
      before,
    );
  });

  it.each([
    ["an empty subject", { subject: " ", body: "Hi" }, "subject", "Write a subject."],
    ["an empty text", { subject: "News", body: "\n " }, "body", "Write the message."],
    [
      "an unknown placeholder",
      { subject: "News", body: "Hi {{first_name}}" },
      "body",
      "Use only {{name}} and {{company}} as placeholders.",
    ],
    [
      "a CR/LF in the subject (header injection)",
      { subject: "News\r\nBcc: everyone@example.com", body: "Hi" },
      "subject",
      "The subject is one line.",
    ],
    [
      "HTML in the text",
      { subject: "News", body: 'Read <a href="https://evil.example">this</a>' },
      "body",
      "Write the message as plain text",
    ],
    ["an HTML entity in the text", { subject: "News", body: "Fish &amp; chips" }, "body", "Write the message as plain text"],
    ["a segment choice not on the list", { subject: "News", body: "Hi", type: "plumbers" }, "segment", "type: Choose a business type"],
    ["a day that does not exist", { subject: "News", body: "Hi", from: "2026-02-30" }, "segment", "from: That is not a date."],
    ["an unknown segment filter", { subject: "News", body: "Hi", colour: "red" }, "segment", "Unrecognized key"],
  ])("with %s is refused with a clear error", (_label, values, field, message) => {
    const parsed = parseUpdate(values);
    expect("problems" in parsed && parsed.problems[field]).toContain(message);
  });

  it("previews the update as a real entry of the segment gets it, leaving out what an unconfirmed address typed", async () => {
    const confirmed = await join({ contact_name: "Dana Ortiz", company_name: "Northwind Heating" });
    await getDatabase().waitlistEntry.update({ where: { id: confirmed }, data: { confirmedAt: new Date() } });
    const preview = await previewUpdate(getDatabase(), input());
    expect(preview).toMatchObject({ entryId: confirmed, confirmed: true });
    expect(preview!.email.subject).toBe("We open on March 1, Dana Ortiz");
    expect(preview!.email.text).toContain("Hello Dana Ortiz,\n\nNorthwind Heating is in.");
    const unconfirmed = await join({ contact_name: "Call 555-0100 now", company_name: "Your account is locked" });
    const lure = await previewUpdate(getDatabase(), input(), unconfirmed);
    expect(lure!.email.subject).toBe("We open on March 1");
    expect(lure!.email.text).toContain("Hello,\n\nYour company is in.");
    expect(lure!.email.html).not.toContain("locked");
  });
});

describe("an update on its way", () => {
  // The file's tests share one database: earlier tests' updates are not this test's to send.
  beforeEach(async () => {
    await getDatabase().mailUpdate.updateMany({ data: { status: "cancelled" } });
  });

  it("goes once to each entry as a signed-up email with its one-click unsubscribe, and the entry's page lists it", async () => {
    const ids = [await join(), await join(), await join()];
    const database = getDatabase();
    const sent = await sendUpdate(database, input(), "form-3", admin);
    const w = worker();
    await w.sweep();
    await w.sweep();
    const emails = (await database.waitlistEntry.findMany({ where: { id: { in: ids } }, select: { email: true } }))
      .map((e) => e.email.toLowerCase())
      .sort();
    expect(await recipients()).toEqual(emails);
    const message = await simpleParser(mail.received()[0]!);
    expect(message.subject).toBe("We open on March 1");
    expect(await headerOf(mail.received()[0]!, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(message.messageId).toMatch(/^<[0-9a-f-]{36}@localhost>$/);
    expect((await updateRows(sent.id)).every((row) => row.status === "delivered" && row.handedOverAt !== null)).toBe(true);
    expect(await updatesOfEntry(database, ids[0]!)).toMatchObject([
      { id: sent.id, subject: "We open on March 1, {{name}}", status: "delivered" },
    ]);
    const [progress] = await listUpdates(database);
    expect(progress).toMatchObject({ queued: 3, sent: 3, waiting: 0, failed: 0, bounced: 0, unsubscribed: 0 });
  });

  it("paused waits, resumed goes, cancelled never goes; each change is audited", async () => {
    for (let i = 0; i < 4; i += 1) await join();
    const database = getDatabase();
    const sent = await sendUpdate(database, input(), "form-4", admin);
    expect(await changeUpdate(database, sent.id, "pause", admin)).toBe("changed");
    expect(await changeUpdate(database, sent.id, "pause", admin)).toBe("unchanged");
    const w = worker({ batchSize: 2 });
    expect(await w.sweep()).toBe(0);
    expect(await changeUpdate(database, sent.id, "resume", admin)).toBe("changed");
    expect(await w.sweep()).toBe(2);
    expect(await changeUpdate(database, sent.id, "cancel", admin)).toBe("changed");
    expect(await w.sweep()).toBe(0);
    expect(await changeUpdate(database, sent.id, "resume", admin)).toBe("unchanged");
    expect(mail.received()).toHaveLength(2);
    const [progress] = await listUpdates(database);
    expect(progress).toMatchObject({ status: "cancelled", queued: 4, sent: 2, waiting: 2 });
    expect(await changeUpdate(database, 9999, "pause", admin)).toBe("missing");
    const trail = await database.operatorAction.findMany({ where: { action: { startsWith: "update_" } }, orderBy: { id: "asc" } });
    expect(trail.filter((row) => JSON.parse(row.detail!).update === sent.id).map((row) => row.action)).toEqual([
      "update_sent",
      "update_paused",
      "update_resumed",
      "update_cancelled",
    ]);
  });

  it("waits for a quiet site: while the main thread is busier than its share, a few each sweep", async () => {
    for (let i = 0; i < 12; i += 1) await join({ utm_campaign: "quiet" });
    await sendUpdate(getDatabase(), input({ campaign: "quiet" }), "form-quiet", admin);
    const noEmail: Channel = async () => ({ delivered: true });
    let clock = Date.now();
    const options = {
      channels: { update: noEmail },
      owner: "quiet",
      retryDelaysMs: [1_000],
      leaseMs: 60_000,
      sweepEveryMs: 2_000,
      now: () => clock,
    };
    // Busier than any share (-1): five a sweep, and no more until the next.
    const busy = new DeliveryWorker({ ...options, quietAbove: { update: -1 } });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the load's first look
    expect(await busy.sweep()).toBe(5);
    expect(await busy.sweep()).toBe(0);
    clock += 2_000;
    expect(await busy.sweep()).toBe(5);
    // A quiet site: the rest at once.
    const calm = new DeliveryWorker({ ...options, quietAbove: { update: 2 } });
    expect(await calm.sweep()).toBe(2);
  });

  it("shares the hourly caps with the other emails and leaves them a tenth", async () => {
    for (let i = 0; i < 12; i += 1) await join();
    const database = getDatabase();
    await sendUpdate(database, input(), "form-5", admin);
    const noEmail: Channel = async () => ({ delivered: true });
    // An hour of its own: the earlier tests' deliveries count in this one.
    const later = Date.now() + 86_400_000;
    const capped = new DeliveryWorker({
      now: () => later,
      channels: { update: noEmail, email: noEmail },
      owner: "caps",
      retryDelaysMs: [1_000],
      leaseMs: 60_000,
      hourlyCaps: { email: 10, update: 9 },
      capKinds: { email: ["email", "update"], update: ["email", "update"] },
    });
    expect(await capped.sweep()).toBe(9);
    expect(await capped.sweep()).toBe(0);
    // A confirmation owed now still has the tenth left for it.
    const entry = await join();
    await database.outboxMessage.create({
      data: { id: crypto.randomUUID(), kind: "email", entryId: entry, nextAttemptAt: new Date(), createdAt: new Date() },
    });
    expect(await capped.sweep()).toBe(1);
    expect(await capped.sweep()).toBe(0);
  });

  it("stops at one click on its unsubscribe: the entry's waiting updates, and every later email, are not sent", async () => {
    await join();
    await join();
    const database = getDatabase();
    const first = await sendUpdate(database, input(), "form-6", admin);
    const second = await sendUpdate(database, input(), "form-7", admin);
    await changeUpdate(database, second.id, "pause", admin);
    const w = worker();
    await w.sweep();
    expect(mail.received()).toHaveLength(2);
    // One of them clicks the unsubscribe button of their mail program on the first update.
    const message = await simpleParser(mail.received()[0]!);
    const address = (await headerOf(mail.received()[0]!, "list-unsubscribe"))!.replace(/^<|>$/g, "");
    const clicked = await unsubscribeRoute.POST(
      new Request(address, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      }),
      { params: Promise.resolve({ token: address.slice(address.lastIndexOf("/") + 1) }) },
    );
    expect(clicked.status).toBe(200);
    const leaver = (message.to && !Array.isArray(message.to) ? message.to.value[0]!.address! : "?").toLowerCase();

    await changeUpdate(database, second.id, "resume", admin);
    await w.sweep();
    await w.sweep();
    await expect(sendUpdate(database, input(), "form-8", admin)).resolves.toMatchObject({ queued: 1 });
    await w.sweep();
    const to = await recipients();
    expect(to).toHaveLength(4);
    expect(to.filter((address) => address === leaver)).toHaveLength(1);
    const progress = await listUpdates(database);
    expect(progress.find((update) => update.id === first.id)).toMatchObject({ queued: 2, sent: 2, unsubscribed: 1 });
    expect(progress.find((update) => update.id === second.id)).toMatchObject({
      queued: 2,
      sent: 1,
      waiting: 0,
      failed: 0,
      unsubscribed: 1,
    });
  });
});
