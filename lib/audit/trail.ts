/**
 * The audit log: one row per operator action (operator_actions), written by the
 * same transaction as the change it records, shown in the console (/operator/audit,
 * and each entry's page) and by `npm run waitlist -- audit`.
 */
import "server-only";
import { hostname, userInfo } from "node:os";
import type { Database, Prisma } from "../db";

const AUDITED_ACTIONS = {
  sign_in: "Signed in",
  sign_out: "Signed out",
  passkey_added: "Added a passkey",
  sign_in_link_sent: "Was sent a sign-in link",
  operator_invited: "Invited an operator",
  operator_removed: "Removed an operator",
  operator_role_changed: "Changed an operator's role",
  passkey_renamed: "Renamed a passkey",
  passkey_removed: "Removed a passkey",
  session_ended: "Signed out a browser",
  export: "Downloaded the list",
  entry_removed: "Removed an entry",
  redelivered: "Resent a delivery",
  follow_up_changed: "Changed the follow-up",
  follow_up_noted: "Added a note",
  follow_up_assigned: "Assigned an entry",
  invitation_edited: "Edited the invitation email",
  unsubscribed: "Unsubscribed from all email (the visitor, one click)",
  mail_suppression_lifted: "Lifted a bounced address's suppression",
  update_sent: "Sent an update to the list",
  update_paused: "Paused an update",
  update_resumed: "Resumed an update",
  update_cancelled: "Cancelled an update",
} as const;

type AuditedAction = keyof typeof AUDITED_ACTIONS;

/** Who did it: a signed-in operator, or someone at the shell (the operator tool). */
export type Actor = { email: string; operatorId: string | null };

/** The operator tool's actor: the system user and host it runs as. */
export function shellActor(): Actor {
  let user = "unknown";
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry for this uid (some containers): the uid is still worth recording.
    user = String(process.getuid?.() ?? "unknown");
  }
  return { email: `shell (${user}@${hostname()})`, operatorId: null };
}

type Writer = Pick<Database, "operatorAction"> | Prisma.TransactionClient;

type AuditRecord = {
  actor: Actor;
  action: AuditedAction;
  entryId?: number | null;
  /** Small facts about the action (filters, a delivery id); never a visitor's personal data. */
  detail?: Record<string, unknown>;
  at?: Date;
};

function actionRow(record: AuditRecord) {
  return {
    at: record.at ?? new Date(),
    actor: record.actor.email,
    operatorId: record.actor.operatorId,
    action: record.action,
    entryId: record.entryId ?? null,
    detail: record.detail && Object.keys(record.detail).length > 0 ? JSON.stringify(record.detail) : null,
  };
}

export async function recordAction(database: Writer, record: AuditRecord): Promise<void> {
  await database.operatorAction.create({ data: actionRow(record) });
}

/** Several at once (one per entry of a change to a selection), in one statement. */
export async function recordActions(database: Writer, records: AuditRecord[]): Promise<void> {
  if (records.length > 0) await database.operatorAction.createMany({ data: records.map(actionRow) });
}

type AuditRow = {
  id: number;
  at: Date;
  actor: string;
  action: string;
  label: string;
  entryId: number | null;
  detail: string | null;
};

function auditRow(row: { id: number; at: Date; actor: string; action: string; entryId: number | null; detail: string | null }): AuditRow {
  return { ...row, label: AUDITED_ACTIONS[row.action as AuditedAction] ?? row.action };
}

/** Newest first, `limit` at a time; `before`: the id of the last row of the previous page. */
export async function listActions(database: Database, options: { limit: number; before?: number; entryId?: number }): Promise<AuditRow[]> {
  const rows = await database.operatorAction.findMany({
    where: { id: options.before ? { lt: options.before } : undefined, entryId: options.entryId },
    orderBy: { id: "desc" },
    take: options.limit,
  });
  return rows.map(auditRow);
}
