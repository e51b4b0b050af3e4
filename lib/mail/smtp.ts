/** How the site reaches its mail server (SMTP_URL) and signs what it sends (lib/mail/dkim.ts). */
import type { Env } from "../env";
import { dkimFromEnv, type DkimSettings } from "./dkim";

/** What sending needs: the server, the sender, and the DKIM key when there is one. */
export type SenderSettings = { smtpUrl: string; from: string; dkim: DkimSettings | null };

/** The sender settings from the environment, or null when mail is off (no SMTP_URL). */
export function senderFromEnv(env: Env): SenderSettings | null {
  if (!env.SMTP_URL || !env.MAIL_FROM) return null;
  return { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, dkim: dkimFromEnv(env) };
}

/**
 * The headers a signature covers: nodemailer's list (RFC 6376's advice, List-Unsubscribe among
 * them) and List-Unsubscribe-Post, which RFC 8058 requires signed too.
 */
const SIGNED_HEADERS =
  "From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:Content-ID:" +
  "Content-Description:Resent-Date:Resent-From:Resent-Sender:Resent-To:Resent-Cc:Resent-Message-ID:In-Reply-To:References:" +
  "List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post:List-Owner:List-Archive";

/** nodemailer's options for a sender's server, signing each message when a key is set. */
export function transportOptionsOf(sender: { smtpUrl: string; dkim?: DkimSettings | null }) {
  return { ...smtpServerOf(sender.smtpUrl), ...(sender.dkim ? { dkim: { ...sender.dkim, headerFieldNames: SIGNED_HEADERS } } : {}) };
}

/** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465 (TLS from the start). */
function smtpServerOf(smtpUrl: string) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
  };
}
