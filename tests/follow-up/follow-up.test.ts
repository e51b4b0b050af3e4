/**
 * The follow-up (lib/follow-up/) on a real migrated SQLite file with both drivers:
 * state changes with who and when, the timeline, refusals, two operators at once,
 * assignment, the queue and its counts, the team's figures, and what the outbox
 * owes: status_changed and overdue webhooks delivered once across two instances,
 * the invitation email with the operators' template, rendered safely.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createDatabase, getDatabase } from "@/lib/db";
import { databaseSettings, parseEnv } from "@/lib/env";
import { addNote, assignEntries, changeFollowUp, changeSchema, timelineOf } from "@/lib/follow-up/changes";
import { DEFAULT_INVITATION, renderInvitation, saveInvitationTemplate, templateSchema } from "@/lib/follow-up/invitation";
import { followUpMetrics } from "@/lib/follow-up/metrics";
import { raiseOverdue } from "@/lib/follow-up/overdue";
import { queuePage } from "@/lib/follow-up/queue";
import { timeLeftText, urgencyOf } from "@/lib/follow-up/states";
import type { Actor } from "@/lib/audit/trail";
import { removeOperator } from "@/lib/console/operators";
import { DeliveryWorker } from "@/lib/outbox/worker";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { OVERDUE_EVENT, STATUS_CHANGED_EVENT, webhookChannel } from "@/lib/waitlist/webhook";
import { holdWriteLock, setUpTestDatabase } from "../support/database";
import { validSignup } from "../support/requests";

const { url: databaseUrl, file: databaseFile } = setUpTestDatabase();

const ana: Actor = { email: "ana@fieldcrew.app", operatorId: null };
const bo: Actor = { email: "bo@fieldcrew.app", operatorId: null };
const WEBHOOK_SECRET = `whsec_${Buffer.from("follow-up-test-secret-0123456789ab").toString("base64")}`;
const HOUR = 3_600_000;

async function signUp(fields: Record<string, unknown> = {}, at?: Date) {
  const result = await addToWaitlist(waitlistSignupSchema.parse({ ...validSignup(), ...fields }));
  if (result.outcome !== "created") throw new Error(result.outcome);
  if (at) await getDatabase().waitlistEntry.update({ where: { id: result.entry.id }, data: { createdAt: at } });
  return result.entry.id;
}

const entry = (id: number) => getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id } });
const outboxOf = (event: string) => getDatabase().outboxMessage.findMany({ where: { event }, orderBy: { createdAt: "asc" } });

describe("changing the follow-up", () => {
  it("starts every sign-up awaiting contact, and records a change with who, when and the note", async () => {
    const id = await signUp();
    expect((await entry(id)).followUpState).toBe("awaiting");
    const at = new Date("2026-11-24T09:30:00Z");
    const [result] = await changeFollowUp(getDatabase(), [id], { to: "contacted", note: "Called, left a voicemail" }, ana, {
      deliveries: ["webhook"],
      now: at,
    });
    expect(result).toEqual({ entryId: id, outcome: "changed", from: "awaiting", to: "contacted" });
    const stored = await entry(id);
    expect(stored).toMatchObject({
      followUpState: "contacted",
      stateChangedBy: "ana@fieldcrew.app",
      stateChangedAt: at,
      firstContactedAt: at,
      invitedAt: null,
    });
    const timeline = await timelineOf(getDatabase(), id);
    expect(timeline).toMatchObject([
      { kind: "state", fromState: "awaiting", toState: "contacted", note: "Called, left a voicemail", actor: "ana@fieldcrew.app", at },
    ]);
    const audit = await getDatabase().operatorAction.findMany({ where: { entryId: id } });
    expect(audit).toMatchObject([
      { action: "follow_up_changed", actor: "ana@fieldcrew.app", detail: JSON.stringify({ from: "awaiting", to: "contacted" }) },
    ]);
    // The note is the operator's: it is in no notification.
    const [webhook] = await outboxOf("status_changed");
    expect(JSON.parse(webhook!.payload!)).toEqual({
      at: at.toISOString(),
      from: "awaiting",
      to: "contacted",
      closed_reason: null,
      changed_by: "ana@fieldcrew.app",
    });
    expect(webhook!.payload).not.toContain("voicemail");
    // First contact is kept through later changes.
    await changeFollowUp(getDatabase(), [id], { to: "in_conversation" }, bo, { deliveries: [], now: new Date(at.getTime() + HOUR) });
    expect((await entry(id)).firstContactedAt).toEqual(at);
  });

  it("refuses a change its state does not allow, with the reason, and changes nothing but keeping the note", async () => {
    const id = await signUp();
    await changeFollowUp(getDatabase(), [id], { to: "closed", closedReason: "do_not_contact" }, ana, { deliveries: [] });
    const [result] = await changeFollowUp(getDatabase(), [id], { to: "contacted", note: "Tried anyway?" }, bo, { deliveries: ["webhook"] });
    expect(result).toEqual({ entryId: id, outcome: "refused", state: "closed", reason: "It is closed, which is final." });
    expect(await entry(id)).toMatchObject({ followUpState: "closed", closedReason: "do_not_contact", stateChangedBy: "ana@fieldcrew.app" });
    expect(await outboxOf("status_changed")).toHaveLength(0);
    expect((await timelineOf(getDatabase(), id)).map((item) => item.kind)).toEqual(["note", "state"]);
    // The schema says what is missing before anything is tried.
    expect(changeSchema.safeParse({ to: "closed" }).error?.issues[0]?.message).toMatch(/why it is closed/);
    expect(changeSchema.safeParse({ to: "awaiting" }).success).toBe(false);
    expect(changeSchema.safeParse({ to: "sold" }).success).toBe(false);
    const [missing] = await changeFollowUp(getDatabase(), [999_999], { to: "contacted" }, ana, { deliveries: [] });
    expect(missing).toEqual({ entryId: 999_999, outcome: "missing" });
  });

  it("with two operators at once on two connections: the last one wins, and both are in the timeline", async () => {
    const other = createDatabase(databaseSettings({ ...parseEnv(), DATABASE_URL: databaseUrl }));
    try {
      const id = await signUp();
      const results = await Promise.all([
        changeFollowUp(getDatabase(), [id], { to: "contacted", note: "Ana's call" }, ana, { deliveries: ["webhook"] }),
        changeFollowUp(other, [id], { to: "in_conversation", note: "Bo's call" }, bo, { deliveries: ["webhook"] }),
      ]);
      expect(results.flat().map((r) => r.outcome)).toEqual(["changed", "changed"]);
      const timeline = await timelineOf(getDatabase(), id);
      expect(timeline.map((item) => item.note).sort()).toEqual(["Ana's call", "Bo's call"]);
      // The entry shows the one that went second, and says who it was.
      const last = timeline[0]!;
      expect(await entry(id)).toMatchObject({ followUpState: last.toState, stateChangedBy: last.actor });
      expect(await outboxOf("status_changed")).toHaveLength(2);
      // The same change twice: the second says who got there first, and its note is kept.
      const [again] = await changeFollowUp(other, [id], { to: last.toState!, note: "Me too" }, ana, { deliveries: [] });
      expect(again).toMatchObject({ outcome: "already", state: last.toState, by: last.actor });
      expect((await timelineOf(getDatabase(), id))[0]).toMatchObject({ kind: "note", note: "Me too" });
    } finally {
      await other.$disconnect();
    }
  });

  it("changes a selection at once, each entry on its own terms", async () => {
    const [a, b, c] = [await signUp(), await signUp(), await signUp()];
    await changeFollowUp(getDatabase(), [c], { to: "closed", closedReason: "not_a_fit" }, ana, { deliveries: [] });
    const results = await changeFollowUp(getDatabase(), [a, b, c], { to: "contacted" }, bo, { deliveries: [] });
    expect(results.map((r) => r.outcome)).toEqual(["changed", "changed", "refused"]);
  });

  it("assigns, notes, and keeps the removed operator's entries unassigned", async () => {
    const db = getDatabase();
    const id = await signUp();
    const operator = await db.operator.create({
      data: { id: "op-1", name: "Ana", email: "ana@fieldcrew.app", createdAt: new Date(), updatedAt: new Date() },
    });
    expect(await assignEntries(db, [id], operator.id, bo)).toBe(1);
    expect(await assignEntries(db, [id], operator.id, bo)).toBe(0);
    expect(await addNote(db, id, "Prefers mornings", ana)).toBe(true);
    expect(await addNote(db, 424_242, "Nobody", ana)).toBe(false);
    expect((await timelineOf(db, id)).map((item) => [item.kind, item.assignee ?? item.note])).toEqual([
      ["note", "Prefers mornings"],
      ["assigned", "ana@fieldcrew.app"],
    ]);
    await expect(assignEntries(db, [id], "no-such-operator", bo)).rejects.toThrow(/no such operator/);
    expect(await removeOperator(db, "ana@fieldcrew.app", bo)).toBe(true);
    expect((await entry(id)).assignedTo).toBeNull();
  });
});

describe("the queue", () => {
  it("lists those awaiting contact, oldest deadline first, with what is overdue and due soon, filtered and paged", async () => {
    const db = getDatabase();
    const now = new Date("2026-11-24T12:00:00Z");
    const overdue = await signUp({ business_type: "plumbing" }, new Date(now.getTime() - 50 * HOUR));
    const dueSoon = await signUp({ business_type: "hvac" }, new Date(now.getTime() - 44 * HOUR));
    const fresh = await signUp({ business_type: "plumbing" }, new Date(now.getTime() - HOUR));
    const contacted = await signUp({}, new Date(now.getTime() - 60 * HOUR));
    await changeFollowUp(db, [contacted], { to: "contacted" }, ana, { deliveries: [] });

    const page = await queuePage(db, {}, now);
    expect(page.rows.map((row) => row.id)).toEqual([overdue, dueSoon, fresh]);
    expect(page.counts).toEqual({ overdue: 1, dueSoon: 1, awaiting: 3 });
    expect(page.rows.map((row) => urgencyOf(row.createdAt, now))).toEqual(["overdue", "due_soon", "on_time"]);
    expect(page.rows.map((row) => timeLeftText(row.createdAt, now))).toEqual(["2 h 0 min overdue", "4 h 0 min left", "47 h 0 min left"]);

    expect((await queuePage(db, { type: "plumbing" }, now)).rows.map((row) => row.id)).toEqual([overdue, fresh]);
    const first = await queuePage(db, {}, now, 2);
    expect(first.next).not.toBeNull();
    expect((await queuePage(db, { after: first.next! }, now, 2)).rows.map((row) => row.id)).toEqual([fresh]);

    await db.operator.create({ data: { id: "op-2", name: "Bo", email: "bo@fieldcrew.app", createdAt: now, updatedAt: now } });
    await assignEntries(db, [fresh], "op-2", ana);
    expect((await queuePage(db, { assignee: "op-2" }, now)).rows.map((row) => row.id)).toEqual([fresh]);
    expect((await queuePage(db, { assignee: "none" }, now)).rows.map((row) => row.id)).toEqual([overdue, dueSoon]);
  });

  it("reports the share contacted within 48 hours and the median time to first contact", async () => {
    const db = getDatabase();
    const now = new Date("2026-11-24T12:00:00Z");
    // Deadlines that passed in the last 7 days: one contacted in 2 h, one in 60 h, one never.
    const quick = await signUp({}, new Date(now.getTime() - 3 * 24 * HOUR));
    const late = await signUp({}, new Date(now.getTime() - 4 * 24 * HOUR));
    await signUp({}, new Date(now.getTime() - 5 * 24 * HOUR));
    // Still inside its 48 hours: not counted yet.
    await signUp({}, new Date(now.getTime() - HOUR));
    await changeFollowUp(db, [quick], { to: "contacted" }, ana, {
      deliveries: [],
      now: new Date(now.getTime() - 3 * 24 * HOUR + 2 * HOUR),
    });
    await changeFollowUp(db, [late], { to: "contacted" }, ana, {
      deliveries: [],
      now: new Date(now.getTime() - 4 * 24 * HOUR + 60 * HOUR),
    });
    const metrics = await followUpMetrics(db, now);
    expect(metrics.last7).toMatchObject({ due: 3, contacted: 2, inTime: 1, medianHours: 31 });
    expect(metrics.last7.shareInTime).toBeCloseTo(1 / 3);
    expect(metrics.last30).toEqual(metrics.last7);
    expect(metrics.weeks).toHaveLength(8);
    expect(metrics.weeks.at(-1)).toMatchObject({ from: "2026-11-17", to: "2026-11-23", due: 3, inTime: 1 });
    // The figures come from tables the database keeps: removing an entry takes it out of them.
    await db.waitlistEntry.delete({ where: { id: late } });
    expect((await followUpMetrics(db, now)).last7).toMatchObject({ due: 2, contacted: 1, inTime: 1, medianHours: 2 });
  });
});

/** A receiver that accepts everything and checks each post's signature. */
async function startReceiver() {
  const bodies: { id: string; type: string; data: Record<string, unknown> }[] = [];
  const verifier = new Webhook(WEBHOOK_SECRET);
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      bodies.push({ id: headers["webhook-id"]!, ...(verifier.verify(body, headers) as { type: string; data: Record<string, unknown> }) });
      response.statusCode = 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("notifications out", () => {
  it("sends each status change and each overdue entry once, across two instances sweeping together", async () => {
    const receiver = await startReceiver();
    const other = createDatabase(databaseSettings({ ...parseEnv(), DATABASE_URL: databaseUrl }));
    try {
      const now = new Date();
      const late = await signUp({}, new Date(now.getTime() - 49 * HOUR));
      const handled = await signUp({}, new Date(now.getTime() - 49 * HOUR));
      const fresh = await signUp({}, new Date(now.getTime() - HOUR));
      await changeFollowUp(getDatabase(), [handled], { to: "contacted" }, ana, { deliveries: ["webhook"] });
      await getDatabase().outboxMessage.deleteMany({ where: { event: "created" } });
      // Two instances sweep for overdue entries at the same moment, twice.
      const raised = await Promise.all([
        raiseOverdue(getDatabase(), { deliveries: ["webhook"], now }),
        raiseOverdue(other, { deliveries: ["webhook"], now }),
      ]);
      expect(raised.sort()).toEqual([0, 1]);
      expect(await raiseOverdue(getDatabase(), { deliveries: ["webhook"], now: new Date(now.getTime() + HOUR) })).toBe(0);

      const channel = webhookChannel({ url: receiver.url, secret: WEBHOOK_SECRET });
      const worker = (owner: string, database: typeof other) =>
        new DeliveryWorker({
          channels: { webhook: channel },
          owner,
          retryDelaysMs: [1_000],
          leaseMs: 60_000,
          database: () => database,
          now: () => Date.now() + 60_000,
        });
      await Promise.all([
        worker("a", getDatabase()).sweep(),
        worker("b", other).sweep(),
        worker("a", getDatabase()).sweep(),
        worker("b", other).sweep(),
      ]);
      expect(receiver.bodies.map((body) => [body.type, body.data.id]).sort()).toEqual(
        [
          [STATUS_CHANGED_EVENT, handled],
          [OVERDUE_EVENT, late],
        ].sort(),
      );
      expect(new Set(receiver.bodies.map((body) => body.id)).size).toBe(2);
      const changed = receiver.bodies.find((body) => body.type === STATUS_CHANGED_EVENT)!;
      expect(changed.data.follow_up).toMatchObject({ from: "awaiting", to: "contacted", changed_by: "ana@fieldcrew.app" });
      expect(receiver.bodies.some((body) => body.data.id === fresh)).toBe(false);
    } finally {
      await other.$disconnect();
      await receiver.close();
    }
  });

  it("counts only what it marked itself when another instance sweeps at the same millisecond", async () => {
    const other = createDatabase(databaseSettings({ ...parseEnv(), DATABASE_URL: databaseUrl }));
    try {
      const now = new Date();
      await signUp({}, new Date(now.getTime() - 49 * HOUR));
      const owedBefore = (await outboxOf("overdue")).length;
      // Both read the entry past its deadline while another process holds the write lock; then one
      // marks it and owes its webhook, and the other's statement finds it marked and leaves it.
      const lock = await holdWriteLock(databaseFile);
      const sweeps = Promise.all([
        raiseOverdue(getDatabase(), { deliveries: ["webhook"], now }),
        raiseOverdue(other, { deliveries: ["webhook"], now }),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await lock.release();
      const raised = await sweeps;
      const owed = (await outboxOf("overdue")).length - owedBefore;
      expect(owed).toBeGreaterThan(0);
      expect(raised.sort()).toEqual([0, owed]);
    } finally {
      await other.$disconnect();
    }
  });

  it("takes no write lock in a minute when nobody passed the deadline, with or without a webhook", async () => {
    await signUp({}, new Date(Date.now() - HOUR));
    // Another process holds the write lock: a look that wanted to write would wait for it (3 s) and fail.
    const lock = await holdWriteLock(databaseFile);
    try {
      const started = performance.now();
      expect(await raiseOverdue(getDatabase(), { deliveries: ["webhook"] })).toBe(0);
      expect(await raiseOverdue(getDatabase(), { deliveries: [] })).toBe(0);
      expect(performance.now() - started).toBeLessThan(1_000);
    } finally {
      await lock.release();
    }
  });

  it("marks without a transaction when no webhook is owed, and owes nothing", async () => {
    const now = new Date();
    const late = await signUp({}, new Date(now.getTime() - 49 * HOUR));
    await getDatabase().outboxMessage.deleteMany();
    expect(await raiseOverdue(getDatabase(), { deliveries: [], now })).toBe(1);
    expect((await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: late } })).overdueAt).toEqual(now);
    expect(await getDatabase().outboxMessage.count()).toBe(0);
    expect(await raiseOverdue(getDatabase(), { deliveries: ["webhook"], now })).toBe(0);
  });

  it("works a backlog larger than a batch through in one look, each entry marked and owed once", async () => {
    const now = new Date();
    // Overdue entries of several batches (the first start on an existing list), oldest first.
    const batch = 10;
    const late = await Promise.all(
      Array.from({ length: batch * 2 + 7 }, (_, i) => signUp({}, new Date(now.getTime() - 49 * HOUR - i * 1_000))),
    );
    await getDatabase().outboxMessage.deleteMany({ where: { event: "created" } });
    expect(await raiseOverdue(getDatabase(), { deliveries: ["webhook"], now, batch })).toBe(late.length);
    const owed = await getDatabase().outboxMessage.findMany({ where: { event: "overdue" }, select: { entryId: true } });
    expect(owed.map((row) => row.entryId).sort((a, b) => a - b)).toEqual([...late].sort((a, b) => a - b));
    expect(await raiseOverdue(getDatabase(), { deliveries: ["webhook"], now })).toBe(0);
  });

  it("owes an invitation email with the template as it was when the entry was invited", async () => {
    const db = getDatabase();
    const id = await signUp({ contact_name: "Dana <b>Ray</b>", company_name: "Ray & Sons\u202e HVAC" });
    await saveInvitationTemplate(db, { subject: "Welcome {{name}}", body: "Hi {{name}},\n\n{{company}} is in.\nSee you soon." }, ana.email);
    await changeFollowUp(db, [id], { to: "invited" }, ana, { deliveries: ["email", "webhook"] });
    await saveInvitationTemplate(db, { subject: "Changed later", body: "Changed later" }, ana.email);
    const [email] = await outboxOf("invitation");
    expect(email).toMatchObject({ kind: "email", entryId: id, throttleKey: "northwind.example" });
    const template = JSON.parse(email!.payload!);
    expect(template.subject).toBe("Welcome {{name}}");
    // Not confirmed yet: nothing the visitor typed goes out (anyone can sign up someone else's address).
    const unconfirmed = renderInvitation(template, await entry(id), "https://fieldcrew.app/waitlist/entry/t");
    expect(unconfirmed.subject).toBe("Welcome");
    expect(unconfirmed.text).toMatch(/^Hi,\n\nYour company is in\.\nSee you soon\./);
    for (const part of [unconfirmed.subject, unconfirmed.text, unconfirmed.html]) expect(part).not.toMatch(/Dana|Ray/);
    const defaults = renderInvitation(DEFAULT_INVITATION, await entry(id), "https://fieldcrew.app/waitlist/entry/t");
    expect(defaults.subject).toBe("You're invited to FieldCrew");
    expect(defaults.text).toMatch(/^Hello,\n\nThank you for waiting with us\. Your company has one of our/);
    // Confirmed: their name and company, as plain text.
    await db.waitlistEntry.update({ where: { id }, data: { confirmedAt: new Date() } });
    const rendered = renderInvitation(template, await entry(id), "https://fieldcrew.app/waitlist/entry/t");
    expect(rendered.subject).toBe("Welcome Dana <b>Ray</b>");
    expect(rendered.text).toContain("Ray & Sons  HVAC is in.\nSee you soon.");
    expect(rendered.html).toContain("Hi Dana &lt;b&gt;Ray&lt;/b&gt;,</p>");
    expect(rendered.html).toContain("Ray &amp; Sons  HVAC is in.<br>See you soon.");
    expect(rendered.html).not.toContain("<b>");
    expect(rendered.text).toContain("https://fieldcrew.app/waitlist/entry/t");
    expect((await entry(id)).invitedAt).not.toBeNull();
    // A template may use only the two placeholders; the default passes its own check.
    expect(templateSchema.safeParse({ subject: "Hi {{email}}", body: "x" }).success).toBe(false);
    expect(templateSchema.safeParse(DEFAULT_INVITATION).success).toBe(true);
  });
});
