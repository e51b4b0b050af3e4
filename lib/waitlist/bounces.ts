/**
 * Bounces (docs/operations.md, "Bounces"): an address the mail system refused for good gets no
 * message of any kind after it, until an operator lifts it. Only a mailbox that is gone counts
 * (./bounce-codes.ts): a refusal about the message or the sending gives up that one message and is
 * counted, so a burst of one refusal shows as a sending problem, not as many dead mailboxes. Two
 * ways a refusal arrives:
 *
 * - while sending: the mail server refuses the recipient at RCPT TO with a mailbox-gone code. The
 *   attempt fails without a retry, and the delivery worker's `onRefused` (recordRefusals) suppresses the entry.
 * - later: a delivery status notification (RFC 3464/6533), the "undeliverable" message a mail
 *   server sends back after it had accepted ours, to the message's own tagged envelope sender. A
 *   mail server hands it to POST /api/mail/bounces with the bounce secret (./bounce-reports.ts).
 */
import "server-only";
import { recordAction, type Actor } from "../audit/trail";
import type { Database, Prisma } from "../db";
import { log } from "../log";
import type { Refusal } from "../outbox/worker";
import { MAIL_SUPPRESSED_PROBLEM } from "./entry-link";
import { normalizeEmail } from "./schema";

type Writer = Database | Prisma.TransactionClient;

/** The statements of a suppression, on a connection or inside a caller's transaction (suppressEntries says what they do). */
export async function suppressWith(writer: Writer, refused: { entryId: number; reason: string }[], now: Date): Promise<void> {
  if (refused.length === 0) return;
  const values = JSON.stringify(refused.map(({ entryId, reason }) => [entryId, reason.slice(0, 200)]));
  await writer.$executeRaw`
    UPDATE waitlist_entries SET mail_suppressed_at = ${now}, mail_suppressed_reason = refused.value ->> 1
    FROM json_each(${values}) AS refused
    WHERE waitlist_entries.id = refused.value ->> 0 AND waitlist_entries.mail_suppressed_at IS NULL`;
  await writer.$executeRaw`
    UPDATE outbox SET status = 'failed', last_error = ${MAIL_SUPPRESSED_PROBLEM}, lease_owner = NULL, lease_expires_at = NULL
    WHERE kind IN ('email', 'update') AND status = 'pending' AND lease_owner IS NULL AND entry_id IN (SELECT value ->> 0 FROM json_each(${values}))`;
}

/** The log line of a suppression, once it is committed. */
export function logSuppressed(entryIds: number[]): void {
  log.warn({ fault: "mail_bounced", entry_ids: entryIds }, "the mail system refused an address for good: no more mail goes to it");
}

/** Suppresses these entries (the first reason is kept) and gives up their pending emails, in one transaction. */
export async function suppressEntries(database: Database, refused: { entryId: number; reason: string }[], now = new Date()): Promise<void> {
  if (refused.length === 0) return;
  await database.$transaction((tx) => suppressWith(tx, refused, now));
  logSuppressed(refused.map((row) => row.entryId));
}

/** Lifts a suppression (the address works again: a typo fixed at the recipient's side, say); audited. False: none to lift. */
export async function liftSuppression(database: Database, email: string, actor: Actor, now = new Date()): Promise<boolean> {
  return database.$transaction(async (tx) => {
    const lifted = await tx.$queryRaw<{ id: bigint | number }[]>`
      UPDATE waitlist_entries SET mail_suppressed_at = NULL, mail_suppressed_reason = NULL
      WHERE email_normalized = ${normalizeEmail(email)} AND mail_suppressed_at IS NOT NULL RETURNING id`;
    if (lifted.length === 0) return false;
    await recordAction(tx, { actor, action: "mail_suppression_lifted", entryId: Number(lifted[0]!.id), at: now });
    return true;
  });
}

/** At least this many refusals of one code within the last hour are a sending problem. */
const BURST = 5;
const MINUTE_MS = 60_000;
/** Refusal counts are kept two days (deleted as new ones are counted), for the last hour with room to spare. */
const KEEP_REFUSALS_MINUTES = 2 * 24 * 60;

/**
 * Counts refusals that are not about a mailbox (per minute and code) and logs them as a sending
 * problem: one line per code, an error once the last hour holds a burst of it.
 */
export async function countSendingRefusals(database: Database, codes: string[], now = new Date()): Promise<void> {
  if (codes.length === 0) return;
  const minute = Math.floor(now.getTime() / MINUTE_MS);
  const counts = new Map<string, number>();
  for (const code of codes) counts.set(code, (counts.get(code) ?? 0) + 1);
  const values = JSON.stringify([...counts]);
  await database.$executeRaw`
    INSERT INTO mail_refusal_minutes (minute, code, refused)
    SELECT ${minute}, counted.value ->> 0, counted.value ->> 1 FROM json_each(${values}) AS counted WHERE true
    ON CONFLICT (minute, code) DO UPDATE SET refused = refused + excluded.refused`;
  await database.$executeRaw`DELETE FROM mail_refusal_minutes WHERE minute < ${minute - KEEP_REFUSALS_MINUTES}`;
  const lastHour = await sendingProblems(database, now, 1);
  for (const [code, messages] of counts) {
    const hour = lastHour.find((problem) => problem.code === code)?.messages ?? messages;
    log[hour >= BURST ? "error" : "warn"](
      { fault: "mail_sending_refused", code, messages, last_hour: hour },
      "the mail system refused email for a reason that is not the recipient's mailbox (policy, relay, sender, content): " +
        "no address was suppressed; fix the sending, then npm run waitlist -- redeliver --all-failed",
    );
  }
}

/** What the delivery worker hears of refused emails: mailboxes that are gone are suppressed, the rest counted. */
export async function recordRefusals(database: Database, refused: Refusal[], now = new Date()): Promise<void> {
  await suppressEntries(
    database,
    refused.filter((refusal) => refusal.mailboxGone).map((refusal) => ({ entryId: refusal.entryId, reason: `SMTP ${refusal.code}` })),
    now,
  );
  await countSendingRefusals(
    database,
    refused.filter((refusal) => !refusal.mailboxGone).map((refusal) => refusal.code),
    now,
  );
}

/**
 * The refusals of the last hour, by code, that are a sending problem (at least `atLeast`, BURST by
 * default), most first: for the overview and /api/health.
 */
export async function sendingProblems(
  database: Database,
  now = new Date(),
  atLeast = BURST,
): Promise<{ code: string; messages: number }[]> {
  const rows = await database.$queryRaw<{ code: string; messages: bigint | number }[]>`
    SELECT code, sum(refused) AS messages FROM mail_refusal_minutes WHERE minute > ${Math.floor(now.getTime() / MINUTE_MS) - 60}
    GROUP BY code HAVING sum(refused) >= ${atLeast} ORDER BY messages DESC, code`;
  return rows.map((row) => ({ code: row.code, messages: Number(row.messages) }));
}
