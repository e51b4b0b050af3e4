/**
 * How the site reaches its mail server (SMTP_URL) and signs what it sends (lib/mail/dkim.ts). A
 * user and password in SMTP_URL never cross the network in the clear: TLS from the start
 * (smtps://) or STARTTLS, required, unless SMTP_ALLOW_PLAINTEXT_AUTH allows it (a relay on the
 * same host); a server that does not offer STARTTLS then stops the site's start (plaintextAuthProblem).
 */
import { connect } from "node:net";
import { hostname } from "node:os";
import type { Env } from "../env";
import { dkimFromEnv, type DkimSettings } from "./dkim";

/** What sending needs: the server, the sender, and the DKIM key when there is one. */
export type SenderSettings = { smtpUrl: string; from: string; dkim: DkimSettings | null; allowPlaintextAuth?: boolean };

/** The sender settings from the environment, or null when mail is off (no SMTP_URL). */
export function senderFromEnv(env: Env): SenderSettings | null {
  if (!env.SMTP_URL || !env.MAIL_FROM) return null;
  return { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, dkim: dkimFromEnv(env), allowPlaintextAuth: env.SMTP_ALLOW_PLAINTEXT_AUTH };
}

/**
 * The headers a signature covers: nodemailer's list (RFC 6376's advice, List-Unsubscribe among
 * them) and List-Unsubscribe-Post, which RFC 8058 requires signed too.
 */
const SIGNED_HEADERS =
  "From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:Content-ID:" +
  "Content-Description:Resent-Date:Resent-From:Resent-Sender:Resent-To:Resent-Cc:Resent-Message-ID:In-Reply-To:References:" +
  "List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post:List-Owner:List-Archive";

type TransportSettings = { smtpUrl: string; dkim?: DkimSettings | null; allowPlaintextAuth?: boolean };

/** nodemailer's options for a sender's server, signing each message when a key is set. */
export function transportOptionsOf(sender: TransportSettings) {
  return { ...smtpServerOf(sender), ...(sender.dkim ? { dkim: { ...sender.dkim, headerFieldNames: SIGNED_HEADERS } } : {}) };
}

/** smtp://user:pass@host:587 (STARTTLS, required with a user) or smtps://…:465 (TLS from the start). */
function smtpServerOf({ smtpUrl, allowPlaintextAuth = false }: TransportSettings) {
  const { host, port, secure, user, pass } = serverOf(smtpUrl);
  return {
    host,
    port,
    secure,
    // nodemailer then sends STARTTLS whatever the server offers, and gives up before AUTH when it fails.
    requireTLS: !secure && user !== undefined && !allowPlaintextAuth,
    auth: user !== undefined ? { user, pass } : undefined,
  };
}

function serverOf(smtpUrl: string) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    user: url.username ? decodeURIComponent(url.username) : undefined,
    pass: decodeURIComponent(url.password),
  };
}

/**
 * Whether the server offers STARTTLS in its EHLO answer: true or false, or null when it cannot be
 * told (no connection, no answer in time). Says QUIT and closes either way.
 */
function offersStartTls(host: string, port: number, timeoutMs: number): Promise<boolean | null> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let received = "";
    let sentEhlo = false;
    const done = (answer: boolean | null) => {
      socket.removeAllListeners("data");
      if (socket.writable) socket.end("QUIT\r\n");
      socket.destroySoon();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(null));
    socket.on("error", () => done(null));
    socket.on("close", () => resolve(null));
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
      // A reply is complete at its last line: the code followed by a space.
      const last = /(?:^|\r?\n)(\d{3}) [^\n]*\r?\n$/.exec(received);
      if (!last) return;
      if (!sentEhlo) {
        if (last[1] !== "220") return done(false);
        sentEhlo = true;
        received = "";
        socket.write(`EHLO ${hostname() || "localhost"}\r\n`);
        return;
      }
      done(last[1] === "250" && /^250[ -]STARTTLS\b/im.test(received));
    });
  });
}

/**
 * Why the site must not start with these settings, in one sentence, or null: SMTP_URL has a user
 * (smtp://, not smtps://), plaintext authentication is not allowed, and the server answered
 * without offering STARTTLS. A server that cannot be reached now does not stop the start: every
 * message requires TLS anyway (requireTLS), so none is sent with the password in the clear.
 */
export async function plaintextAuthProblem(settings: TransportSettings, timeoutMs = 5_000): Promise<string | null> {
  const { host, port, secure, user } = serverOf(settings.smtpUrl);
  if (secure || user === undefined || settings.allowPlaintextAuth) return null;
  if ((await offersStartTls(host, port, timeoutMs)) !== false) return null;
  return (
    `SMTP_URL has a user and password, but ${host}:${port} does not offer STARTTLS, so they would cross the network in the clear: ` +
    "use smtps://, a mail server that offers STARTTLS, or set SMTP_ALLOW_PLAINTEXT_AUTH=true for a relay on this host."
  );
}
