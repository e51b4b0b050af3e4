/**
 * Bounces (docs/operations.md, "Bounces"): an address the mail system refused for good gets no
 * message of any kind after it, until an operator lifts it. Two ways a refusal arrives:
 *
 * - while sending: the mail server refuses the recipient (an SMTP 5xx at RCPT TO, or an enhanced
 *   status 5.1.x / 5.2.1 at any step). The attempt fails without a retry, and the delivery worker
 *   suppresses the entry (lib/outbox/worker.ts, `recipientRefused`).
 * - later: a delivery status notification (RFC 3464), the "undeliverable" message a mail server
 *   sends back after it had accepted ours. A mail server hands it to POST /api/mail/bounces with
 *   the bounce secret (a pipe alias; docs/operations.md); mailparser reads it, and every recipient
 *   it reports `failed` with a 5.x.x status is suppressed.
 */
import "server-only";
import { recordAction, type Actor } from "../audit/trail";
import type { Database } from "../db";
import { log } from "../log";
import { MAIL_SUPPRESSED_PROBLEM } from "./entry-link";
import { normalizeEmail } from "./schema";

/** Suppresses these entries (the first reason is kept) and gives up their pending emails. */
export async function suppressEntries(database: Database, refused: { entryId: number; reason: string }[], now = new Date()): Promise<void> {
  if (refused.length === 0) return;
  const values = JSON.stringify(refused.map(({ entryId, reason }) => [entryId, reason.slice(0, 200)]));
  await database.$transaction([
    database.$executeRaw`
      UPDATE waitlist_entries SET mail_suppressed_at = ${now}, mail_suppressed_reason = refused.value ->> 1
      FROM json_each(${values}) AS refused
      WHERE waitlist_entries.id = refused.value ->> 0 AND waitlist_entries.mail_suppressed_at IS NULL`,
    database.$executeRaw`
      UPDATE outbox SET status = 'failed', last_error = ${MAIL_SUPPRESSED_PROBLEM}, lease_owner = NULL, lease_expires_at = NULL
      WHERE kind = 'email' AND status = 'pending' AND lease_owner IS NULL AND entry_id IN (SELECT value ->> 0 FROM json_each(${values}))`,
  ]);
  log.warn(
    { fault: "mail_bounced", entry_ids: refused.map((row) => row.entryId) },
    "the mail system refused an address for good: no more mail goes to it",
  );
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
