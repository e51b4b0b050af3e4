/**
 * Reports of undelivered mail (delivery status notifications, RFC 3464 and RFC 6533's UTF-8 form)
 * handed to POST /api/mail/bounces by the mail server (./bounces.ts says what a suppression is).
 *
 * A report counts only for a message the site sent, and only for that message's recipient. Each
 * message to a visitor goes out with an envelope sender of its own (lib/mail/bounce-address.ts),
 * so its report comes back to that address, which the mail server's pipe passes on
 * (X-Original-To) and writes into the message (X-Original-To, Delivered-To, Envelope-To). The tag
 * must check out with the site's secret, name an email the site delivered, not have been counted
 * before, and the report must name that email's address: anyone else's report (a forged one, one
 * about another address, the same one sent again) changes nothing, and is logged as one line.
 *
 * Its own module: mailparser is heavy, and only the site's route needs it, not the operator tool.
 */
import "server-only";
import { simpleParser, type ParsedMail } from "mailparser";
import type { Database } from "../db";
import { ApiError, json, readBoundedBytes, TOO_LARGE } from "../http";
import { deliveryIdOfBounceAddress } from "../mail/bounce-address";
import { log } from "../log";
import { isMailboxGone } from "./bounce-codes";
import { countSendingRefusals, logSuppressed, suppressWith } from "./bounces";

/** The header the documented pipe passes the address a report arrived at in (Postfix's $ORIGINAL_RECIPIENT). */
const ENVELOPE_RECIPIENT_HEADER = "x-original-to";
/** The headers a mail server writes the address it delivered to into, newest first. */
const DELIVERED_TO_HEADERS = ["x-original-to", "delivered-to", "envelope-to"];

/** One recipient's report in a notification (RFC 3464's per-recipient fields). */
type RecipientReport = { finalRecipient: string; originalRecipient: string; action: string; status: string };

/** An address field's value without its type: "rfc822; a@b" or RFC 6533's "utf-8; a@b" (with \x{HEX} escapes). */
function addressOf(field: string): string {
  const [type, ...rest] = field.split(";");
  const address = rest.join(";").trim();
  if (!address) return "";
  return type!.trim().toLowerCase() === "utf-8"
    ? address.replace(/\\x\{([0-9a-f]{1,6})\}/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    : address;
}

/** The per-recipient reports of a notification; none when the message is not one. */
function recipientReports(parsed: ParsedMail): RecipientReport[] {
  const report = parsed.attachments.find((part) => /^message\/(global-)?delivery-status$/i.test(part.contentType));
  if (!report) return [];
  // Header-like lines in groups separated by blank lines; the first group is about the message.
  const groups = report.content
    .toString("utf8")
    .replace(/\r\n/g, "\n")
    .split(/\n\s*\n/);
  return groups.slice(1).flatMap((group) => {
    const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, "im").exec(group)?.[1]?.trim() ?? "";
    const finalRecipient = addressOf(field("Final-Recipient"));
    const originalRecipient = addressOf(field("Original-Recipient"));
    return finalRecipient || originalRecipient
      ? [{ finalRecipient, originalRecipient, action: field("Action").toLowerCase(), status: field("Status") }]
      : [];
  });
}

/** The addresses a report was delivered to: the pipe's word first, then what the mail server wrote into it. */
function deliveredTo(request: Request, parsed: ParsedMail): string[] {
  const fromPipe = request.headers.get(ENVELOPE_RECIPIENT_HEADER);
  const written = parsed.headerLines.filter((line) => DELIVERED_TO_HEADERS.includes(line.key)).map((line) => line.line);
  return [fromPipe ?? "", ...written].flatMap((text) => text.match(/[^\s<>:,;"]+@[^\s<>:,;"]+/g) ?? []);
}

/** Why a report changed nothing, in the log line and the answer. */
type Ignored = "not_tied" | "not_sent" | "already_counted" | "other_address";

type Outcome = { suppressed: number; ignored?: Ignored; status?: string };

/** What the report tied to delivery `deliveryId` does: suppress its recipient, count a refusal, or nothing. */
async function applyReport(database: Database, deliveryId: string, reports: RecipientReport[], now: Date): Promise<Outcome> {
  const delivery = await database.outboxMessage.findUnique({
    where: { id: deliveryId },
    select: { kind: true, status: true, entryId: true, bouncedAt: true, entry: { select: { email: true } } },
  });
  if (!delivery || (delivery.kind !== "email" && delivery.kind !== "update") || delivery.status !== "delivered")
    return { suppressed: 0, ignored: "not_sent" };
  if (delivery.bouncedAt) return { suppressed: 0, ignored: "already_counted" };
  // The address exactly as it was mailed (case aside): a report about another spelling of the
  // same mailbox is about another message.
  const address = delivery.entry.email.trim().toLowerCase();
  const about = reports.find((report) =>
    [report.finalRecipient, report.originalRecipient].some((named) => named.toLowerCase() === address),
  );
  if (!about) return { suppressed: 0, ignored: "other_address" };
  // A delay, or a failure that may pass: nothing to do, and a later final report still counts.
  if (about.action !== "failed" || !/^5\.\d{1,3}\.\d{1,3}$/.test(about.status)) return { suppressed: 0, status: about.status };

  const gone = isMailboxGone(about.status);
  const counted = await database.$transaction(async (tx) => {
    // The write first: a transaction that reads before it writes gets no wait for SQLite's lock.
    const marked = await tx.outboxMessage.updateMany({ where: { id: deliveryId, bouncedAt: null }, data: { bouncedAt: now } });
    if (marked.count === 0) return false;
    if (gone) await suppressWith(tx, [{ entryId: delivery.entryId, reason: `DSN ${about.status}` }], now);
    return true;
  });
  if (!counted) return { suppressed: 0, ignored: "already_counted" };
  if (gone) logSuppressed([delivery.entryId]);
  else await countSendingRefusals(database, [`DSN ${about.status}`], now);
  return { suppressed: gone ? 1 : 0, status: about.status };
}

/** A notification is a few KiB with the original message's headers; the server takes no body over 64 KiB. */
const MAX_REPORT_BYTES = 64 * 1024;

/** What reading a report needs of the site. */
type BounceServices = {
  /** MAIL_BOUNCE_ADDRESS: the mailbox the tagged envelope senders are made from. */
  env: { MAIL_BOUNCE_ADDRESS?: string };
  /** The site's secret, which signs the tags. */
  secret: string;
  database: () => Database;
};

/**
 * POST /api/mail/bounces (bearerSecret guard: MAIL_BOUNCE_SECRET): a report as the mail server
 * received it (the raw message), with the address it arrived at in X-Original-To. Answers how many
 * recipients it named, how many entries it suppressed and how many of its recipients it ignored
 * (with why, when the whole report was).
 */
export async function postBounceReport(request: Request, { services }: { services: BounceServices }): Promise<Response> {
  // Bytes, not text: reports in 8-bit charsets are common, and mailparser decodes each part by its own charset.
  const raw = await readBoundedBytes(request, MAX_REPORT_BYTES);
  if (raw === TOO_LARGE) throw new ApiError("too_large", { detail: "A report is at most 64 KiB." });
  if (!(raw instanceof Uint8Array)) throw new ApiError("unreadable_body", { detail: "Send the report as the raw message." });
  let parsed: ParsedMail;
  try {
    parsed = await simpleParser(Buffer.from(raw), { keepDeliveryStatus: true });
  } catch (error) {
    // mailsplit's limits (more than 1,000 parts, a 1 MiB header): too large, whatever its bytes.
    if ((error as { code?: unknown }).code === "EMAXLEN") throw new ApiError("too_large", { detail: "That report has too many parts." });
    throw new ApiError("unreadable_body", { detail: "It is not a message." });
  }
  const reports = recipientReports(parsed);
  if (reports.length === 0) return json(200, { reports: 0, suppressed: 0, ignored: 0 });

  const bounceAddress = services.env.MAIL_BOUNCE_ADDRESS;
  const deliveryId = bounceAddress
    ? deliveredTo(request, parsed)
        .map((address) => deliveryIdOfBounceAddress(address, bounceAddress, services.secret))
        .find((id) => id !== null)
    : undefined;
  const outcome: Outcome = deliveryId
    ? await applyReport(services.database(), deliveryId, reports, new Date())
    : { suppressed: 0, ignored: "not_tied" };
  if (outcome.ignored) {
    // One line per report, however many recipients it names; ids and counts only.
    log.warn(
      { fault: "bounce_ignored", reason: outcome.ignored, recipients: reports.length, ...(deliveryId ? { delivery_id: deliveryId } : {}) },
      "a report of undelivered mail was ignored: it is not tied to a message the site sent to the address it names",
    );
    return json(200, { reports: reports.length, suppressed: 0, ignored: reports.length, reason: outcome.ignored });
  }
  return json(200, { reports: reports.length, suppressed: outcome.suppressed, ignored: reports.length - 1 });
}
