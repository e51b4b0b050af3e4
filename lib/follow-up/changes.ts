/**
 * What operators do to an entry's follow-up: change its state (one entry or a
 * selection), add a note, assign it. Each is one transaction that records the
 * change on the entry, a row of its timeline (follow_up_events), a row of the
 * audit log, and what is owed to other systems in the outbox: the
 * waitlist.entry.status_changed webhook, and for an invitation the email with
 * the template as it is at that moment. So a change and its notifications are
 * written together or not at all.
 *
 * Concurrent changes from two operators never lose one: SQLite runs write
 * transactions one after the other, and each one starts with its write (the
 * timeline row, made from the entry's state inside that same statement). The
 * second change is then made from the state the first left, or refused with the
 * reason when that state does not allow it; the timeline holds both, and the
 * entry says who changed it last.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { whileBusy, type Database, type Prisma } from "../db";
import { recordAction, recordActions, type Actor } from "../audit/trail";
import { owe, type OwedDelivery } from "../outbox/owe";
import type { DeliveryKind } from "../outbox/worker";
import { domainOf } from "../mail/address";
import { loadInvitationTemplate } from "./invitation";
import {
  CLOSED_REASONS,
  FOLLOW_UP_STATES,
  isFollowUpState,
  refusalOf,
  statesBefore,
  type ClosedReason,
  type FollowUpState,
} from "./states";

const NOTE_MAX_LENGTH = 2_000;
/** A bulk change names at most this many entries (a queue page holds 50). */
export const MAX_SELECTION = 200;

const noteSchema = z
  .string()
  .trim()
  .max(NOTE_MAX_LENGTH, { error: `Keep the note under ${NOTE_MAX_LENGTH.toLocaleString("en-US")} characters.` })
  .optional()
  .transform((note) => note || undefined);

/** A change as the console's forms and the shell give it. */
export const changeSchema = z
  .object({
    to: z.enum(FOLLOW_UP_STATES, { error: "Choose what the entry becomes: contacted, in conversation, invited or closed." }),
    closedReason: z
      .enum(CLOSED_REASONS, { error: "Choose why it is closed: not a fit, no answer, or asked not to be contacted." })
      .optional(),
    note: noteSchema,
  })
  .refine((change) => change.to !== "closed" || change.closedReason !== undefined, {
    path: ["closedReason"],
    error: "Choose why it is closed: not a fit, no answer, or asked not to be contacted.",
  })
  .refine((change) => change.to !== "awaiting", { path: ["to"], error: "An entry cannot be put back to awaiting contact." });

type FollowUpChange = { to: FollowUpState; closedReason?: ClosedReason; note?: string };

export const noteOnlySchema = z.object({ note: noteSchema.refine((note) => note !== undefined, { error: "Write the note first." }) });

export type ChangeResult =
  | { entryId: number; outcome: "changed"; from: FollowUpState; to: FollowUpState }
  /** It already was in that state (another operator got there first): nothing changed but the note, if one was given (kept on a refusal too). */
  | { entryId: number; outcome: "already"; state: FollowUpState; by: string | null; at: Date | null }
  | { entryId: number; outcome: "refused"; state: FollowUpState; reason: string }
  | { entryId: number; outcome: "missing" };

type ChangeOptions = {
  /** The kinds of delivery configured (lib/waitlist/deliveries.ts, configuredKinds): what is owed. */
  deliveries: readonly DeliveryKind[];
  now?: Date;
};

type Tx = Prisma.TransactionClient;

/** The facts a status_changed webhook carries, fixed when the change is made. */
type StatusChangedPayload = {
  at: string;
  from: FollowUpState;
  to: FollowUpState;
  closed_reason: ClosedReason | null;
  changed_by: string;
};

/** Changes the follow-up of `entryIds` (in that order in the answer). */
export async function changeFollowUp(
  database: Database,
  entryIds: readonly number[],
  change: FollowUpChange,
  actor: Actor,
  options: ChangeOptions,
): Promise<ChangeResult[]> {
  const now = options.now ?? new Date();
  const ids = [...new Set(entryIds)];
  const { to, note } = change;
  const closedReason = to === "closed" ? (change.closedReason ?? null) : null;
  // Read before the transaction, so the transaction itself starts with its write.
  const template = to === "invited" && options.deliveries.includes("email") ? await loadInvitationTemplate(database) : null;

  return whileBusy(database, (db) =>
    db.$transaction(async (tx) => {
      const changed = await tx.$queryRaw<{ entry_id: bigint | number; from_state: string }[]>`
      INSERT INTO follow_up_events (entry_id, at, actor, operator_id, kind, from_state, to_state, closed_reason, note)
      SELECT id, ${now}, ${actor.email}, ${actor.operatorId}, 'state', follow_up_state, ${to}, ${closedReason}, ${note ?? null}
      FROM waitlist_entries
      WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))
        AND follow_up_state IN (SELECT value FROM json_each(${JSON.stringify(statesBefore(to))}))
      RETURNING entry_id, from_state`;
      const fromOf = new Map(changed.map((row) => [Number(row.entry_id), row.from_state as FollowUpState]));
      const changedIds = [...fromOf.keys()];

      if (changedIds.length > 0) {
        await tx.$executeRaw`
        UPDATE waitlist_entries SET
          follow_up_state = ${to}, closed_reason = ${closedReason}, state_changed_at = ${now}, state_changed_by = ${actor.email},
          first_contacted_at = CASE WHEN first_contacted_at IS NULL AND ${to} IN ('contacted', 'in_conversation', 'invited') THEN ${now} ELSE first_contacted_at END,
          invited_at = CASE WHEN ${to} = 'invited' THEN ${now} ELSE invited_at END
        WHERE id IN (SELECT value FROM json_each(${JSON.stringify(changedIds)}))`;
        await oweAboutChange(
          tx,
          changedIds,
          (id) => ({ at: now.toISOString(), from: fromOf.get(id)!, to, closed_reason: closedReason, changed_by: actor.email }),
          template,
          options.deliveries,
          now,
        );
        await recordActions(
          tx,
          changedIds.map((entryId) => ({
            actor,
            action: "follow_up_changed",
            entryId,
            at: now,
            detail: { from: fromOf.get(entryId), to, ...(closedReason ? { closed_reason: closedReason } : {}) },
          })),
        );
      }

      // Why the others did not change: gone, already there, or not allowed. The note is kept either way.
      const others = ids.filter((id) => !fromOf.has(id));
      const current = others.length
        ? await tx.waitlistEntry.findMany({
            where: { id: { in: others } },
            select: { id: true, followUpState: true, stateChangedBy: true, stateChangedAt: true },
          })
        : [];
      const currentOf = new Map(current.map((entry) => [entry.id, entry]));
      if (note && current.length > 0)
        await writeNotes(
          tx,
          current.map((entry) => entry.id),
          note,
          actor,
          now,
        );

      return ids.map((entryId): ChangeResult => {
        const from = fromOf.get(entryId);
        if (from) return { entryId, outcome: "changed", from, to };
        const entry = currentOf.get(entryId);
        if (!entry) return { entryId, outcome: "missing" };
        const state = isFollowUpState(entry.followUpState) ? entry.followUpState : "awaiting";
        if (state === to) return { entryId, outcome: "already", state, by: entry.stateChangedBy, at: entry.stateChangedAt };
        return { entryId, outcome: "refused", state, reason: refusalOf(state, to) ?? "It cannot change that way." };
      });
    }),
  );
}

/** The webhook about each change and, for an invitation, the email: outbox rows in the change's transaction. */
async function oweAboutChange(
  tx: Tx,
  entryIds: number[],
  payloadOf: (id: number) => StatusChangedPayload,
  template: { subject: string; body: string } | null,
  deliveries: readonly DeliveryKind[],
  now: Date,
): Promise<void> {
  const rows: OwedDelivery[] = [];
  if (deliveries.includes("webhook")) {
    for (const id of entryIds)
      rows.push({
        id: randomUUID(),
        kind: "webhook",
        entryId: id,
        event: "status_changed",
        payload: JSON.stringify(payloadOf(id)),
        throttleKey: null,
      });
  }
  if (template) {
    // An entry that unsubscribed gets no invitation by email (the entry's page says so to the operator).
    const recipients = await tx.waitlistEntry.findMany({
      where: { id: { in: entryIds }, unsubscribedAt: null, mailSuppressedAt: null },
      select: { id: true, emailNormalized: true },
    });
    const payload = JSON.stringify({ subject: template.subject, body: template.body });
    // The recipient's domain is the throttle key, so invitations share MAIL_MAX_PER_DOMAIN_PER_HOUR with confirmations.
    for (const entry of recipients)
      rows.push({
        id: randomUUID(),
        kind: "email",
        entryId: entry.id,
        event: "invitation",
        payload,
        throttleKey: domainOf(entry.emailNormalized),
      });
  }
  await owe(tx, rows, now);
}

async function writeNotes(tx: Tx, entryIds: number[], note: string, actor: Actor, now: Date): Promise<void> {
  await tx.followUpEvent.createMany({
    data: entryIds.map((entryId) => ({ entryId, at: now, actor: actor.email, operatorId: actor.operatorId, kind: "note", note })),
  });
  await recordActions(
    tx,
    entryIds.map((entryId) => ({ actor, action: "follow_up_noted", entryId, at: now })),
  );
}

/** A note on the entry's timeline, its state unchanged. False: there is no such entry. */
export async function addNote(database: Database, entryId: number, note: string, actor: Actor, now = new Date()): Promise<boolean> {
  return whileBusy(database, (db) =>
    db.$transaction(async (tx) => {
      const inserted = await tx.$queryRaw<{ id: bigint | number }[]>`
      INSERT INTO follow_up_events (entry_id, at, actor, operator_id, kind, note)
      SELECT id, ${now}, ${actor.email}, ${actor.operatorId}, 'note', ${note} FROM waitlist_entries WHERE id = ${entryId}
      RETURNING id`;
      if (inserted.length === 0) return false;
      await recordAction(tx, { actor, action: "follow_up_noted", entryId, at: now });
      return true;
    }),
  );
}

export class AssignProblem extends Error {}

/** Assigns the entries to an operator (null: to nobody). Returns how many changed hands. */
export async function assignEntries(
  database: Database,
  entryIds: readonly number[],
  operatorId: string | null,
  actor: Actor,
  now = new Date(),
): Promise<number> {
  const ids = [...new Set(entryIds)];
  let assigneeEmail: string | null = null;
  if (operatorId !== null) {
    const operator = await database.operator.findUnique({ where: { id: operatorId }, select: { email: true } });
    if (!operator) throw new AssignProblem("There is no such operator (they may have been removed).");
    assigneeEmail = operator.email;
  }
  return whileBusy(database, (db) =>
    db.$transaction(async (tx) => {
      const moved = await tx.$queryRaw<{ id: bigint | number }[]>`
      UPDATE waitlist_entries SET assigned_to = ${operatorId}
      WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND assigned_to IS NOT ${operatorId}
      RETURNING id`;
      const movedIds = moved.map((row) => Number(row.id));
      if (movedIds.length === 0) return 0;
      await tx.followUpEvent.createMany({
        data: movedIds.map((entryId) => ({
          entryId,
          at: now,
          actor: actor.email,
          operatorId: actor.operatorId,
          kind: "assigned",
          assignedTo: operatorId,
        })),
      });
      await recordActions(
        tx,
        movedIds.map((entryId) => ({ actor, action: "follow_up_assigned", entryId, at: now, detail: { to: assigneeEmail ?? "nobody" } })),
      );
      return movedIds.length;
    }),
  );
}

export type TimelineItem = {
  id: number;
  at: Date;
  actor: string;
  kind: "state" | "note" | "assigned";
  fromState: FollowUpState | null;
  toState: FollowUpState | null;
  closedReason: ClosedReason | null;
  note: string | null;
  /** With "assigned": the assignee's email, or null for nobody (or a removed operator). */
  assignee: string | null;
};

/** The entry's timeline, newest first. */
export async function timelineOf(database: Database, entryId: number): Promise<TimelineItem[]> {
  const rows = await database.followUpEvent.findMany({ where: { entryId }, orderBy: [{ at: "desc" }, { id: "desc" }], take: 200 });
  const assigneeIds = [...new Set(rows.map((row) => row.assignedTo).filter((id): id is string => id !== null))];
  const operators = assigneeIds.length
    ? await database.operator.findMany({ where: { id: { in: assigneeIds } }, select: { id: true, email: true } })
    : [];
  const emailOf = new Map(operators.map((operator) => [operator.id, operator.email]));
  return rows.map((row) => ({
    id: row.id,
    at: row.at,
    actor: row.actor,
    kind: row.kind as TimelineItem["kind"],
    fromState: row.fromState as FollowUpState | null,
    toState: row.toState as FollowUpState | null,
    closedReason: row.closedReason as ClosedReason | null,
    note: row.note,
    assignee: row.assignedTo ? (emailOf.get(row.assignedTo) ?? null) : null,
  }));
}
