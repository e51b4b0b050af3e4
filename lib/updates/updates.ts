/**
 * Updates to the list (docs/operations.md, "Updates to the list"): the team writes a subject and a
 * text with {{name}} and {{company}}, chooses a segment, checks it, and sends. Sending queues one
 * outbox row of kind "update" per entry of the segment in one INSERT ... SELECT, with the update's
 * row and its audit row in the same transaction: entries that join afterwards are not in it, a
 * unique index keeps an entry from getting it twice, and the delivery worker sends the rows under
 * the mail caps, through the hand-over that keeps an instance's death from sending one twice.
 * Pausing and cancelling change the update's status, which the claim reads (lib/outbox/statements.ts).
 */
import "server-only";
import { z } from "zod";
import { recordAction, type Actor } from "../audit/trail";
import { Prisma, type Database } from "../db";
import { subjectSchema, bodySchema, renderTemplate, type RenderedEmail, type TeamTemplate } from "../mail/template";
import { orderedUuid } from "../ordered-id";
import { MAIL_SUPPRESSED_PROBLEM, UNSUBSCRIBED_PROBLEM } from "../waitlist/entry-link";
import { UPDATE_HEADING } from "../waitlist/channels";
import { describeSegment, segmentConditions, segmentSchema, type Segment } from "./segment";

/** Tags of HTML, or its entities: the text is sent as plain text, and escaped in the HTML part. */
const HTML_IN_TEXT = /<\/?[a-z][a-z0-9-]*(\s[^>]*)?\/?>|<!--|&(#\d+|#x[0-9a-f]+|[a-z]+);/i;

const updateTemplateSchema = z.object({
  subject: subjectSchema,
  body: bodySchema.refine((text) => !HTML_IN_TEXT.test(text), {
    error: "Write the message as plain text: HTML tags and entities are sent as they are typed, not as markup.",
  }),
});

export type UpdateInput = { template: TeamTemplate; segment: Segment };

/** Why nothing can be sent: without SMTP_URL and MAIL_FROM no email goes out, and an update's rows would only wait. */
export const MAIL_OFF =
  'Mail is off on this site (SMTP_URL and MAIL_FROM are not set), so nothing can be sent. See docs/operations.md, "Confirmation emails".';

/** A refusal in words, and the field it is about (for a form): nothing was queued or sent. */
export class UpdateRefused extends Error {
  constructor(
    message: string,
    readonly field: "subject" | "body" | "segment" | "form" = "form",
  ) {
    super(message);
    this.name = "UpdateRefused";
  }
}

/** The fields of a form or the shell as an update to send, or each field's problem. */
export function parseUpdate(values: Record<string, unknown>): { input: UpdateInput } | { problems: Record<string, string> } {
  const template = updateTemplateSchema.safeParse({ subject: values.subject, body: values.body });
  const segmentValues = Object.fromEntries(Object.entries(values).filter(([key]) => key !== "subject" && key !== "body"));
  const segment = segmentSchema.safeParse(segmentValues);
  const problems: Record<string, string> = {};
  for (const issue of [...(template.error?.issues ?? []), ...(segment.error?.issues ?? [])]) {
    const key = String(issue.path[0] ?? "segment");
    const field = key === "subject" || key === "body" ? key : "segment";
    problems[field] ??= key === field || field !== "segment" ? issue.message : `${key}: ${issue.message}`;
  }
  if (!template.success || !segment.success) return { problems };
  return { input: { template: template.data, segment: segment.data } };
}

/** How many entries the segment holds now (mail may go to each). */
export async function countRecipients(database: Database, segment: Segment): Promise<number> {
  const [row] = await database.$queryRaw<{ n: bigint | number }[]>`
    SELECT count(*) AS n FROM waitlist_entries e WHERE ${segmentConditions(segment)}`;
  return Number(row?.n ?? 0);
}

/** The link a preview shows in place of an entry's own (which opens their page and unsubscribes them). */
export const PREVIEW_LINK = "https://fieldcrew.app/waitlist/entry/…";

export type Preview = { entryId: number; company: string; confirmed: boolean; email: RenderedEmail };

/** The update as the segment's newest entry (or the entry `entryId`, if in the segment) gets it; null when nobody is in it. */
export async function previewUpdate(database: Database, input: UpdateInput, entryId?: number): Promise<Preview | null> {
  const only = entryId === undefined ? Prisma.empty : Prisma.sql`AND e.id = ${entryId}`;
  const [entry] = await database.$queryRaw<
    { id: bigint | number; contact_name: string; company_name: string; confirmed_at: string | null }[]
  >`SELECT e.id, e.contact_name, e.company_name, e.confirmed_at FROM waitlist_entries e
    WHERE ${segmentConditions(input.segment)} ${only} ORDER BY e.id DESC LIMIT 1`;
  if (!entry) return null;
  const values = {
    contactName: entry.contact_name,
    companyName: entry.company_name,
    confirmedAt: entry.confirmed_at ? new Date(entry.confirmed_at) : null,
  };
  return {
    entryId: Number(entry.id),
    company: entry.company_name,
    confirmed: values.confirmedAt !== null,
    email: renderTemplate(input.template, values, PREVIEW_LINK, UPDATE_HEADING),
  };
}

type SentUpdate = { id: number; queued: number; created: boolean };

/**
 * Sends the update: its row, one outbox row per entry of the segment (one statement), and the
 * audit row, in one transaction. `requestKey` is the form's own: posted twice (a double click), the
 * second finds the first and queues nothing. A segment of nobody is refused, and nothing is stored.
 */
export async function sendUpdate(
  database: Database,
  input: UpdateInput,
  requestKey: string,
  actor: Actor,
  now = new Date(),
): Promise<SentUpdate> {
  return database.$transaction(async (tx) => {
    // The write first: a transaction that reads before it writes gets no wait for SQLite's lock.
    const [made] = await tx.$queryRaw<{ id: bigint | number }[]>`
      INSERT INTO mail_updates (subject, body, segment, status, queued, id_prefix, request_key, created_at, created_by)
      VALUES (${input.template.subject}, ${input.template.body}, ${JSON.stringify(input.segment)}, 'sending', 0,
        ${orderedUuid().slice(0, 23)}, ${requestKey}, ${now}, ${actor.email})
      ON CONFLICT (request_key) DO NOTHING RETURNING id`;
    if (!made) {
      const earlier = await tx.mailUpdate.findUnique({ where: { requestKey }, select: { id: true, queued: true } });
      if (!earlier) throw new UpdateRefused("This form was sent already. Reload the page to write another update.");
      return { ...earlier, created: false };
    }
    const id = Number(made.id);
    // Each row's id is the update's prefix and the entry's id in hex: a UUID, as the bounce
    // address needs, and the same on every attempt (the Message-ID).
    const queued = await tx.$executeRaw`
      INSERT INTO outbox (id, kind, entry_id, status, attempts, next_attempt_at, created_at, event, payload, throttle_key, update_id)
      SELECT u.id_prefix || '-' || printf('%012x', e.id), 'update', e.id, 'pending', 0, ${now}, ${now}, 'update', NULL,
        lower(rtrim(substr(e.email_normalized, instr(e.email_normalized, '@') + 1), '.')), u.id
      FROM waitlist_entries e JOIN mail_updates u ON u.id = ${id}
      WHERE ${segmentConditions(input.segment)}`;
    if (queued === 0)
      throw new UpdateRefused(
        "Nobody on the list is in this segment (or everyone in it unsubscribed or bounced): nothing was sent.",
        "segment",
      );
    await tx.mailUpdate.update({ where: { id }, data: { queued } });
    await recordAction(tx, {
      actor,
      action: "update_sent",
      detail: { update: id, subject: input.template.subject, recipients: queued, segment: describeSegment(input.segment) },
      at: now,
    });
    return { id, queued, created: true };
  });
}

export const UPDATE_ACTIONS = ["pause", "resume", "cancel"] as const;
export type UpdateAction = (typeof UPDATE_ACTIONS)[number];

const FROM_STATUS = {
  pause: { from: ["sending"], to: "paused", audited: "update_paused" },
  resume: { from: ["paused"], to: "sending", audited: "update_resumed" },
  cancel: { from: ["sending", "paused"], to: "cancelled", audited: "update_cancelled" },
} as const;

/**
 * Pauses, resumes or cancels an update, audited: the claim takes only a sending update's rows, so
 * a paused one waits and a cancelled one's unsent rows are never sent. Messages already on their
 * way finish. "unchanged": the update was not in a state this applies to.
 */
export async function changeUpdate(
  database: Database,
  id: number,
  action: UpdateAction,
  actor: Actor,
  now = new Date(),
): Promise<"changed" | "unchanged" | "missing"> {
  const { from, to, audited } = FROM_STATUS[action];
  return database.$transaction(async (tx) => {
    const changed = await tx.mailUpdate.updateMany({
      where: { id, status: { in: [...from] } },
      data: { status: to, changedAt: now, changedBy: actor.email },
    });
    if (changed.count === 0) return (await tx.mailUpdate.count({ where: { id } })) === 0 ? "missing" : "unchanged";
    await recordAction(tx, { actor, action: audited, detail: { update: id }, at: now });
    return "changed";
  });
}

export type UpdateProgress = {
  id: number;
  subject: string;
  segment: string;
  status: string;
  createdAt: Date;
  createdBy: string;
  changedAt: Date | null;
  changedBy: string | null;
  queued: number;
  sent: number;
  /** Waiting to be sent (a cancelled update's never will be). */
  waiting: number;
  /** Refused for good by the mail server for another reason than a bounce. */
  failed: number;
  /** Whose address bounced since the update began (no more mail goes to it). */
  bounced: number;
  /** Who unsubscribed since the update began (one click in this or any email). */
  unsubscribed: number;
};

type ProgressRow = {
  total: bigint | number;
  sent: bigint | number;
  waiting: bigint | number;
  failed: bigint | number;
  bounced: bigint | number;
  unsubscribed: bigint | number;
};

async function progressOf(database: Database, update: { id: number; createdAt: Date }): Promise<ProgressRow> {
  const [row] = await database.$queryRaw<ProgressRow[]>`
    SELECT count(*) AS total,
      count(*) FILTER (WHERE o.status = 'delivered') AS sent,
      count(*) FILTER (WHERE o.status = 'pending') AS waiting,
      count(*) FILTER (WHERE o.status = 'failed' AND coalesce(o.last_error, '') NOT IN (${UNSUBSCRIBED_PROBLEM}, ${MAIL_SUPPRESSED_PROBLEM})) AS failed,
      count(*) FILTER (WHERE e.mail_suppressed_at >= ${update.createdAt} OR o.bounced_at IS NOT NULL) AS bounced,
      count(*) FILTER (WHERE e.unsubscribed_at >= ${update.createdAt}) AS unsubscribed
    FROM outbox o JOIN waitlist_entries e ON e.id = o.entry_id
    WHERE o.update_id = ${update.id}`;
  return row!;
}

/** The newest updates first, each with its progress. */
export async function listUpdates(database: Database, limit = 20): Promise<UpdateProgress[]> {
  const updates = await database.mailUpdate.findMany({ orderBy: { id: "desc" }, take: limit });
  return Promise.all(
    updates.map(async (update) => {
      const row = await progressOf(database, update);
      return {
        id: update.id,
        subject: update.subject,
        segment: describeSegment(segmentSchema.parse(JSON.parse(update.segment))),
        status: update.status,
        createdAt: update.createdAt,
        createdBy: update.createdBy,
        changedAt: update.changedAt,
        changedBy: update.changedBy,
        queued: update.queued,
        sent: Number(row.sent),
        waiting: Number(row.waiting),
        failed: Number(row.failed),
        bounced: Number(row.bounced),
        unsubscribed: Number(row.unsubscribed),
      };
    }),
  );
}

/** What the updates an entry was sent are: subject, when, and how it went. */
export async function updatesOfEntry(
  database: Database,
  entryId: number,
): Promise<{ id: number; subject: string; status: string; deliveredAt: Date | null }[]> {
  const rows = await database.$queryRaw<{ id: bigint | number; subject: string; status: string; delivered_at: string | null }[]>`
    SELECT u.id, u.subject, o.status, o.delivered_at FROM outbox o JOIN mail_updates u ON u.id = o.update_id
    WHERE o.entry_id = ${entryId} AND o.update_id IS NOT NULL ORDER BY u.id DESC`;
  return rows.map((row) => ({
    id: Number(row.id),
    subject: row.subject,
    status: row.status,
    deliveredAt: row.delivered_at ? new Date(row.delivered_at) : null,
  }));
}

/** The status word an update's state and progress make: "sending", "paused", "cancelled" or "sent". */
export function statusWord(update: Pick<UpdateProgress, "status" | "waiting">): string {
  return update.status === "sending" && update.waiting === 0 ? "sent" : update.status;
}
