/**
 * Delivery status notifications (RFC 3464) handed to POST /api/mail/bounces by the mail server
 * (./bounces.ts says what a suppression is). Its own module: mailparser is heavy, and only the
 * site's route needs it, not the operator tool.
 */
import "server-only";
import { timingSafeEqual } from "node:crypto";
import { simpleParser } from "mailparser";
import { isTemporary, type Database } from "../db";
import { errorAnswer, json, readBoundedText, retryLater, TOO_LARGE } from "../http";
import { errorFields, log } from "../log";
import { suppressEntries } from "./bounces";
import { normalizeEmail } from "./schema";

/** One recipient's report in a delivery status notification (RFC 3464's per-recipient fields). */
type DsnRecipient = { recipient: string; action: string; status: string };

/** The per-recipient reports of a delivery status notification; none when the message is not one. */
async function readDsn(raw: string): Promise<DsnRecipient[]> {
  // keepDeliveryStatus: the report as a part of its own, not folded into the text.
  const parsed = await simpleParser(raw, { keepDeliveryStatus: true });
  const report = parsed.attachments.find((part) => part.contentType === "message/delivery-status");
  if (!report) return [];
  // The fields are header-like lines, in groups separated by blank lines; the first group is about the message.
  const groups = report.content
    .toString("utf8")
    .replace(/\r\n/g, "\n")
    .split(/\n\s*\n/);
  return groups.slice(1).flatMap((group) => {
    const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, "im").exec(group)?.[1]?.trim() ?? "";
    const recipient = (field("Final-Recipient") || field("Original-Recipient")).replace(/^rfc822;\s*/i, "");
    return recipient ? [{ recipient, action: field("Action").toLowerCase(), status: field("Status") }] : [];
  });
}

/** The entries whose addresses a notification reports as failed for good, suppressed; returns how many. */
async function suppressFromDsn(database: Database, reports: DsnRecipient[], now = new Date()): Promise<number> {
  const failed = reports.filter((report) => report.action === "failed" && /^5\.\d{1,3}\.\d{1,3}$/.test(report.status));
  if (failed.length === 0) return 0;
  const entries = await database.waitlistEntry.findMany({
    where: { emailNormalized: { in: failed.map((report) => normalizeEmail(report.recipient)) }, mailSuppressedAt: null },
    select: { id: true, emailNormalized: true },
  });
  const statusOf = new Map(failed.map((report) => [normalizeEmail(report.recipient), report.status]));
  await suppressEntries(
    database,
    entries.map((entry) => ({ entryId: entry.id, reason: `DSN ${statusOf.get(entry.emailNormalized)}` })),
    now,
  );
  return entries.length;
}

/** A notification is a few KiB with the original message's headers; the server takes no body over 64 KiB. */
const MAX_DSN_BYTES = 64 * 1024;

/**
 * POST /api/mail/bounces: a delivery status notification as the mail server received it (the raw
 * message), with `Authorization: Bearer <MAIL_BOUNCE_SECRET>`. Answers how many entries it suppressed.
 */
export function createBounceHandler(options: { secret: string | undefined; database: () => Database }) {
  const expected = options.secret ? Buffer.from(`Bearer ${options.secret}`) : null;
  return async function handleBounce(request: Request): Promise<Response> {
    const given = Buffer.from(request.headers.get("authorization") ?? "");
    if (!expected || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return errorAnswer(
        401,
        "secret_required",
        expected
          ? "Send the bounce secret as Authorization: Bearer <MAIL_BOUNCE_SECRET>."
          : "Bounces are not taken here: MAIL_BOUNCE_SECRET is not set.",
      );
    }
    const raw = await readBoundedText(request, MAX_DSN_BYTES);
    if (raw === TOO_LARGE) return errorAnswer(413, "too_large", "A notification is at most 64 KiB.");
    if (typeof raw !== "string") return errorAnswer(400, "unreadable_body", "Send the notification as the raw message.");
    try {
      const reports = await readDsn(raw);
      const suppressed = await suppressFromDsn(options.database(), reports);
      return json(200, { reports: reports.length, suppressed });
    } catch (error) {
      if (isTemporary(error))
        return errorAnswer(503, "temporarily_unavailable", "The database is busy; send the notification again.", { headers: retryLater() });
      log.error({ fault: "unexpected", ...errorFields(error) }, "a bounce could not be read");
      return errorAnswer(500, "unexpected", "Something went wrong on our side.");
    }
  };
}
