/**
 * The two emails an operator can get (only when SMTP_URL is set): an enrolment
 * link when they are invited, and a one-time sign-in link when they lost their
 * passkey. Sent straight away rather than through the outbox: the links are good
 * for hours or minutes, and an outbox row belongs to a sign-up.
 */
import "server-only";
import { createTransport } from "nodemailer";
import { SITE } from "../content/site";
import { transportOptionsOf, type SenderSettings } from "../mail/smtp";
import { escapeHtml } from "../mail/html";

const SIGN_IN_SUBJECT = `Your ${SITE.name} console sign-in link`;
const ENROLMENT_SUBJECT = `You're invited to the ${SITE.name} operator console`;

async function send(smtp: SenderSettings, to: string, subject: string, text: string, html: string): Promise<void> {
  const transport = createTransport({
    ...transportOptionsOf(smtp),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  try {
    await transport.sendMail({ from: smtp.from, to, subject, text, html, headers: { "Auto-Submitted": "auto-generated" } });
  } finally {
    transport.close();
  }
}

export function sendSignInLink(smtp: SenderSettings, to: string, url: string, minutes: number): Promise<void> {
  const text = [
    `Someone (we hope you) asked to sign in to the ${SITE.name} operator console with this address.`,
    "",
    `Sign in (the link works once, for ${minutes} minutes):`,
    url,
    "",
    "A sign-in by link lets you work the queue; for a new passkey, ask an admin for a new enrolment link. If you did not ask for this, ignore this email: nothing happens without the link.",
  ].join("\n");
  const html = `<p>Someone (we hope you) asked to sign in to the ${escapeHtml(SITE.name)} operator console with this address.</p>
<p><a href="${escapeHtml(url)}">Sign in</a> (the link works once, for ${minutes} minutes).</p>
<p>A sign-in by link lets you work the queue; for a new passkey, ask an admin for a new enrolment link. If you did not ask for this, ignore this email: nothing happens without the link.</p>`;
  return send(smtp, to, SIGN_IN_SUBJECT, text, html);
}

export function sendEnrolmentLink(smtp: SenderSettings, to: string, url: string, hours: number): Promise<void> {
  const text = [
    `You have been invited to the ${SITE.name} operator console, where the team works the waitlist.`,
    "",
    `Create your passkey here (the link works once, for ${hours} hours):`,
    url,
    "",
    "A passkey signs you in with your device's screen lock or a security key; there is no password.",
  ].join("\n");
  const html = `<p>You have been invited to the ${escapeHtml(SITE.name)} operator console, where the team works the waitlist.</p>
<p><a href="${escapeHtml(url)}">Create your passkey</a> (the link works once, for ${hours} hours).</p>
<p>A passkey signs you in with your device's screen lock or a security key; there is no password.</p>`;
  return send(smtp, to, ENROLMENT_SUBJECT, text, html);
}
