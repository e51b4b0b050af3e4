/**
 * SMTP credentials never cross the network in the clear (issue 61, lib/mail/smtp.ts): with a user
 * in SMTP_URL, a mail server that does not offer STARTTLS (or one that has it stripped on the way)
 * never receives AUTH, the site refuses to start against it with one sentence, and only
 * SMTP_ALLOW_PLAINTEXT_AUTH lets the password go without TLS. Against real SMTP servers.
 */
import { createServer } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendSignInLink } from "@/lib/auth/emails";
import { getDatabase } from "@/lib/db";
import { plaintextAuthProblem } from "@/lib/mail/smtp";
import { confirmationEmailChannel } from "@/lib/waitlist/confirmation-email";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { setUpTestDatabase } from "../support/database";
import { testSecret } from "../support/challenge";
import { validSignup } from "../support/requests";

setUpTestDatabase();

/** What a server heard: the credentials it was sent, the messages it accepted. */
type Heard = { credentials: string[]; messages: number };

/** A real SMTP server that takes AUTH; `startTls: false` is one that offers no STARTTLS (or one it was stripped from). */
async function smtpServer(startTls: boolean): Promise<{ server: SMTPServer; port: number; heard: Heard }> {
  const heard: Heard = { credentials: [], messages: 0 };
  const server = new SMTPServer({
    logger: false,
    // smtp-server's own self-signed certificate when STARTTLS is offered.
    disabledCommands: startTls ? [] : ["STARTTLS"],
    allowInsecureAuth: true,
    closeTimeout: 1_000,
    onAuth(auth, _session, callback) {
      heard.credentials.push(`${auth.username}:${auth.password}`);
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on("end", () => {
        heard.messages += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.server.address() as { port: number }).port, heard };
}

let plaintextOnly: Awaited<ReturnType<typeof smtpServer>>;
let withStartTls: Awaited<ReturnType<typeof smtpServer>>;
beforeAll(async () => {
  [plaintextOnly, withStartTls] = await Promise.all([smtpServer(false), smtpServer(true)]);
});
afterAll(async () => {
  await Promise.all([plaintextOnly, withStartTls].map(({ server }) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

const withCredentials = (port: number) => `smtp://mailer:s3cret-password@127.0.0.1:${port}`;

async function sendConfirmation(smtpUrl: string, allowPlaintextAuth?: boolean) {
  const stored = await addToWaitlist(waitlistSignupSchema.parse(validSignup({ email: `tls.${Date.now()}.${Math.random()}@example.com` })));
  if (stored.outcome !== "created") throw new Error(stored.outcome);
  const entry = await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: stored.entry.id } });
  const send = confirmationEmailChannel({
    smtpUrl,
    from: "FieldCrew <hello@fieldcrew.example>",
    secret: testSecret(),
    siteUrl: "https://fieldcrew.example",
    allowPlaintextAuth,
  });
  const delivery = { id: crypto.randomUUID(), kind: "email" as const, entryId: entry.id, attempt: 1, event: "created", payload: null };
  return send(delivery, entry, new AbortController().signal, Date.now() + 10_000);
}

describe("a user and password in SMTP_URL", () => {
  it("are never sent to a server without STARTTLS: the email is not sent, and nothing reaches it", async () => {
    const outcome = await sendConfirmation(withCredentials(plaintextOnly.port));
    // Refused at STARTTLS: this message fails, no address is suppressed, and it counts as a sending problem.
    expect(outcome).toMatchObject({ delivered: false, retry: false, refused: { mailboxGone: false, code: "500 at STARTTLS" } });
    await expect(
      sendSignInLink(
        { smtpUrl: withCredentials(plaintextOnly.port), from: "FieldCrew <hello@fieldcrew.example>", dkim: null },
        "ana@fieldcrew.example",
        "https://fieldcrew.example/sign-in",
        15,
      ),
    ).rejects.toThrow();
    expect(plaintextOnly.heard).toEqual({ credentials: [], messages: 0 });
  });

  it("go to it only when SMTP_ALLOW_PLAINTEXT_AUTH says so (a relay on the same host)", async () => {
    expect(await sendConfirmation(withCredentials(plaintextOnly.port), true)).toEqual({ delivered: true });
    expect(plaintextOnly.heard.credentials).toEqual(["mailer:s3cret-password"]);
    plaintextOnly.heard.credentials.length = 0;
    plaintextOnly.heard.messages = 0;
  });

  it("stop the site's start against such a server, in one sentence naming the way out", async () => {
    expect(await plaintextAuthProblem({ smtpUrl: withCredentials(plaintextOnly.port) })).toBe(
      `SMTP_URL has a user and password, but 127.0.0.1:${plaintextOnly.port} does not offer STARTTLS, so they would cross the network in the clear: ` +
        "use smtps://, a mail server that offers STARTTLS, or set SMTP_ALLOW_PLAINTEXT_AUTH=true for a relay on this host.",
    );
    expect(plaintextOnly.heard.credentials).toEqual([]);
  });

  it("do not stop it against a server that offers STARTTLS, with smtps://, without a user, with plaintext allowed, or a server down now", async () => {
    expect(await plaintextAuthProblem({ smtpUrl: withCredentials(withStartTls.port) })).toBeNull();
    expect(await plaintextAuthProblem({ smtpUrl: `smtp://127.0.0.1:${plaintextOnly.port}` })).toBeNull();
    expect(await plaintextAuthProblem({ smtpUrl: withCredentials(plaintextOnly.port), allowPlaintextAuth: true })).toBeNull();
    expect(await plaintextAuthProblem({ smtpUrl: `smtps://mailer:pw@127.0.0.1:${plaintextOnly.port}` })).toBeNull();
    // A port nothing listens on: the start goes on, and every message still requires TLS.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await plaintextAuthProblem({ smtpUrl: withCredentials(port) })).toBeNull();
    expect(withStartTls.heard.credentials).toEqual([]);
  });
});
