/**
 * "Send a test to me": the update as the preview's entry would get it, to the operator's own
 * address, marked as a test in its subject. It goes straight to the mail server, not through the
 * outbox (nothing about it is owed to an entry), signed like every message, and without the
 * entry's own links: its button opens the site, and it carries no unsubscribe of anyone's entry.
 */
import "server-only";
import { createTransport } from "nodemailer";
import { transportOptionsOf, type SenderSettings } from "../mail/smtp";
import { MAIL_OFF, PREVIEW_LINK, UpdateRefused, type Preview } from "./updates";

/** How long the mail server has to take the test: the operator is waiting for the page. */
const TEST_TIMEOUT_MS = 10_000;

export async function sendTestMessage(sender: SenderSettings | null, to: string, preview: Preview, siteUrl: string): Promise<void> {
  if (!sender) throw new UpdateRefused(MAIL_OFF);
  const transport = createTransport({
    ...transportOptionsOf(sender),
    connectionTimeout: TEST_TIMEOUT_MS,
    greetingTimeout: TEST_TIMEOUT_MS,
    socketTimeout: TEST_TIMEOUT_MS,
  });
  const link = new URL("/", siteUrl).href;
  const withSiteLink = (text: string) => text.replaceAll(PREVIEW_LINK, link);
  try {
    await transport.sendMail({
      from: sender.from,
      to,
      subject: `[Test] ${preview.email.subject}`,
      text: withSiteLink(preview.email.text),
      html: withSiteLink(preview.email.html),
      headers: { "Auto-Submitted": "auto-generated" },
    });
  } catch (error) {
    const code = (error as { responseCode?: number; code?: string }).responseCode ?? (error as { code?: string }).code ?? "no answer";
    throw new UpdateRefused(`The mail server did not take the test message (${code}). Nothing was sent; try again in a moment.`);
  } finally {
    transport.close();
  }
}
