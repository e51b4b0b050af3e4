/**
 * The confirmation email each new sign-up gets: plain text and HTML in the
 * site's look, the 48-hour promise, what was registered, and one link to the
 * visitor's own page (lib/waitlist/entry-link.ts). No images, no tracking.
 *
 * Only our words: anyone can type any address into the form, so nothing the
 * visitor typed (name, company, notes, phone) goes into this message, only the
 * business type and size as our labels, the time of the sign-up and the link.
 * The visitor's page, behind that link, shows everything. The recipient is the
 * schema-checked address alone, without a display name. What is shown is still
 * escaped in the HTML and stripped of control characters in both parts.
 */
import "server-only";
import { createTransport } from "nodemailer";
import { FIGURES, SITE } from "../content/site";
import type { WaitlistEntry } from "../generated/prisma/client";
import type { Attempted, Channel, Delivery, HandOver } from "../outbox/worker";
import { smtpRefusalOf } from "./bounce-codes";
import { entryToken, entryUrl, MAIL_SUPPRESSED_PROBLEM, UNSUBSCRIBED_PROBLEM, unsubscribeHeaders } from "./entry-link";
import { shownFields, signupOf } from "./fields";
import { emailHtml, escapeHtml, plain } from "../mail/html";
import { taggedBounceAddress } from "../mail/bounce-address";
import { transportOptionsOf } from "../mail/smtp";
import { endAfterHandOver, type HeldMessage } from "../mail/hand-over";
import type { DkimSettings } from "../mail/dkim";

export const CONFIRMATION_SUBJECT = `You're on the ${SITE.name} waitlist`;

type ConfirmationEmail = { subject: string; text: string; html: string; link: string };

const signedUpAt = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });

/** What the email says about an entry; `link` is its page. */
export function confirmationEmail(entry: WaitlistEntry, link: string): ConfirmationEmail {
  const registered: [label: string, value: string][] = [
    ...shownFields(signupOf(entry), "inEmail"),
    ["Signed up", `${signedUpAt.format(entry.createdAt)} UTC`],
  ];
  const promise = `Thanks for joining the ${SITE.name} waitlist. Our team will reach out within ${FIGURES.responseHours} hours to learn about your business and set up your founding-member access.`;
  const linkLine = "See your entry, confirm this email address, or leave the waitlist:";
  const ignore = "If you did not sign up, you can remove the entry at the same link, or ignore this email: we will not send another.";

  const text = [
    "Hello,",
    "",
    promise,
    "",
    "What you registered:",
    ...registered.map(([label, value]) => `  ${label}: ${plain(value)}`),
    "",
    linkLine,
    link,
    "",
    ignore,
    "",
    `The ${SITE.name} team`,
    SITE.contactEmail,
    "",
  ].join("\n");

  const row = ([label, value]: [string, string]) =>
    `<tr><td style="padding:6px 16px 6px 0;color:#64748b;white-space:nowrap;vertical-align:top">${escapeHtml(label)}</td>` +
    `<td style="padding:6px 0;color:#0b1220;font-weight:600">${escapeHtml(value)}</td></tr>`;
  const html = emailHtml({
    title: CONFIRMATION_SUBJECT,
    heading: "You're on the list!",
    body: `<p style="margin:0 0 20px;font-size:16px;line-height:1.6;color:#334155">${escapeHtml(promise)}</p>
<p style="margin:0 0 8px;font-size:14px;font-weight:700;text-transform:uppercase;letter-spacing:.04em;color:#9a3412">What you registered</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 24px;font-size:15px">${registered.map(row).join("")}</table>
<p style="margin:0 0 16px;font-size:15px;line-height:1.6;color:#334155">${escapeHtml(linkLine)}</p>`,
    link,
    linkLabel: "Open my waitlist entry",
    footnote: ignore,
  });
  return { subject: CONFIRMATION_SUBJECT, text, html, link };
}

export type MailOptions = {
  /** smtp:// or smtps:// with credentials, as nodemailer reads it. */
  smtpUrl: string;
  from: string;
  /** Signs the links (WAITLIST_SECRET). */
  secret: string;
  siteUrl: string;
  /** Connections kept open to the mail server (MAIL_MAX_CONNECTIONS): messages on their way at once. */
  maxConnections?: number;
  /** Signs every message (lib/mail/dkim.ts); null or unset: unsigned. */
  dkim?: DkimSettings | null;
  /** SMTP_ALLOW_PLAINTEXT_AUTH: the credentials may cross a connection without TLS (lib/mail/smtp.ts). */
  allowPlaintextAuth?: boolean;
  /**
   * Where reports of undelivered mail come back (MAIL_BOUNCE_ADDRESS): each message's envelope
   * sender is this address tagged with the message's own id (lib/mail/bounce-address.ts). Unset: MAIL_FROM.
   */
  returnPath?: string;
};

/**
 * Which message a delivery of kind "email" is: the confirmation for "created", others
 * (the invitation, lib/follow-up/invitation.ts) by their event. `link`: the entry's page.
 */
export type ComposeEmail = (delivery: Delivery, entry: WaitlistEntry, link: string) => { subject: string; text: string; html: string };

const composeConfirmation: ComposeEmail = (_delivery, entry, link) => confirmationEmail(entry, link);

/** The outbox channel for kind "email": one message through SMTP_URL, composed by `compose` (the confirmation unless told). */
export function confirmationEmailChannel(options: MailOptions, compose: ComposeEmail = composeConfirmation): Channel {
  // Pooled: a connection carries message after message, instead of a connection, a greeting and a
  // goodbye for each, which cost more CPU than the message itself at launch volume.
  const { dkim, ...server } = transportOptionsOf(options);
  const transport = createTransport({
    ...server,
    pool: true,
    maxConnections: options.maxConnections ?? 10,
    maxMessages: Infinity,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  // Signs every message, and holds an update's end until its row is marked handed over (../mail/hand-over.ts).
  endAfterHandOver(transport, dkim ?? null);
  const messageHost = new URL(options.siteUrl).hostname;

  return async function sendConfirmation(
    delivery: Delivery,
    entry: WaitlistEntry,
    deadline: AbortSignal,
    _deadlineAt?: number,
    handOver?: HandOver,
  ): Promise<Attempted> {
    if (!entry.publicId) return { delivered: false, retry: false, problem: "entry has no public id" };
    // Unsubscribed after this was claimed: the unsubscribe gave up what was pending, and this too.
    if (entry.unsubscribedAt) return { delivered: false, retry: false, problem: UNSUBSCRIBED_PROBLEM };
    if (entry.mailSuppressedAt) return { delivered: false, retry: false, problem: MAIL_SUPPRESSED_PROBLEM };
    let email: ReturnType<ComposeEmail>;
    try {
      email = compose(delivery, entry, entryUrl(options.siteUrl, entryToken(options.secret, entry.publicId)));
    } catch (error) {
      // A row whose stored facts cannot make a message will not make one on a later attempt either.
      return { delivered: false, retry: false, problem: `not composed: ${error instanceof Error ? error.message : String(error)}` };
    }
    // An update goes to a whole segment at once: it waits for the hand-over, so that no instance's
    // death sends it twice. The site's other emails are delivered at least once, as before.
    // From the moment the hand-over is asked, the deadline no longer ends the conversation: once the
    // row is marked, the message must be finished (the row will never be sent again), and a mark
    // refused ends it unfinished through the hold itself. nodemailer's own timeouts still apply.
    let handedOver = false;
    let asked = false;
    const conversation = new AbortController();
    const onDeadline = () => {
      if (!asked) conversation.abort(deadline.reason);
    };
    if (deadline.aborted) onDeadline();
    else deadline.addEventListener("abort", onDeadline, { once: true });
    const held =
      delivery.kind === "update" && handOver
        ? async () => {
            asked = true;
            handedOver = await handOver();
            return handedOver;
          }
        : undefined;
    try {
      const message: HeldMessage = {
        from: options.from,
        to: entry.email,
        subject: email.subject,
        text: email.text,
        html: email.html,
        // The same on every attempt, so a mail system that got it once can tell a repeat.
        messageId: `<${delivery.id}@${messageHost}>`,
        ...(options.returnPath
          ? { envelope: { from: taggedBounceAddress(options.returnPath, delivery.id, options.secret), to: entry.email } }
          : {}),
        // One click in the mail program stops all mail to the entry (RFC 8058; ./unsubscribe.ts).
        headers: { "Auto-Submitted": "auto-generated", ...unsubscribeHeaders(options.siteUrl, options.secret, entry.publicId) },
        // The whole conversation (connection, greeting, data) ends at the attempt's deadline:
        // nodemailer closes the connection, and the message is given up before it was accepted.
        signal: conversation.signal,
        handOver: held,
      };
      await transport.sendMail(message).finally(() => deadline.removeEventListener("abort", onDeadline));
      return { delivered: true };
    } catch (error) {
      // Handed over and no answer from the server (the connection dropped, the deadline): it may
      // have taken the message, so it is not sent again. An answer (a 4xx, a 5xx) is read as usual.
      if (handedOver && (error as { responseCode?: number }).responseCode === undefined) return { delivered: true };
      // A 5xx is final for this message; the worker suppresses the entry only when it says the
      // mailbox is gone (./bounces.ts). Anything else (a 4xx, no connection) is tried again.
      const refused = smtpRefusalOf(error as object);
      if (refused) return { delivered: false, retry: false, problem: `SMTP ${refused.code}`, refused };
      return {
        delivered: false,
        retry: true,
        problem: `SMTP ${(error as { responseCode?: number; code?: string }).responseCode ?? (error as { code?: string }).code ?? "error"}`,
      };
    }
  };
}

/** The outbox event of a link asked for again (lib/waitlist/link-again.ts owes it; ./channels.ts composes it). */
export const LINK_AGAIN_EVENT = "link_again";

const LINK_AGAIN_SUBJECT = `Your link to your ${SITE.name} waitlist entry`;

/** The email "Email me my link again" sends: only the link, to the address on the list. */
export function linkAgainEmail(link: string): ConfirmationEmail {
  const why = `Someone, probably you, asked for a new link to your entry on the ${SITE.name} waitlist.`;
  const linkLine = "See your entry, confirm this email address, download your data, or leave the waitlist:";
  const ignore = "If you did not ask for it, you can ignore this email: the link works only for you, and nothing has changed.";
  const text = [`Hello,`, "", why, "", linkLine, link, "", ignore, "", `The ${SITE.name} team`, SITE.contactEmail, ""].join("\n");
  const html = emailHtml({
    title: LINK_AGAIN_SUBJECT,
    heading: "Your link, again",
    body: `<p style="margin:0 0 16px;font-size:16px;line-height:1.6;color:#334155">${escapeHtml(why)}</p>
<p style="margin:0 0 16px;font-size:15px;line-height:1.6;color:#334155">${escapeHtml(linkLine)}</p>`,
    link,
    linkLabel: "Open my waitlist entry",
    footnote: ignore,
  });
  return { subject: LINK_AGAIN_SUBJECT, text, html, link };
}
