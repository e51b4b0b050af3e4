/**
 * A real SMTP server on loopback that keeps every message it receives as an
 * .eml file, for the end-to-end tests (and for trying the confirmation email
 * by hand: SMTP_URL=smtp://127.0.0.1:2525 MAIL_FROM=... npm start).
 *
 *   node --import tsx e2e/support/mail-catcher.ts --port 2525 --dir .tmp/mail
 *
 * Each message is written to <dir>/<time>-<n>.eml once fully received; a file
 * named `down` in <dir> makes it refuse mail with a temporary error (451).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";

export function startMailCatcher(options: {
  port: number;
  dir: string;
  host?: string;
  /** Keeps each message, then waits this long before saying so: a site killed meanwhile never hears it was taken. */
  answerDelayMs?: number;
}): Promise<SMTPServer> {
  mkdirSync(options.dir, { recursive: true });
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    banner: "FieldCrew test mail catcher",
    logger: false,
    // A site's pooled connection stays open between messages: closing waits a second for it, not 30.
    closeTimeout: 1_000,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (existsSync(path.join(options.dir, "down"))) {
          const error = Object.assign(new Error("Mail service is down for the test"), { responseCode: 451 });
          return callback(error);
        }
        received += 1;
        writeFileSync(path.join(options.dir, `${Date.now()}-${received}.eml`), Buffer.concat(chunks));
        if (options.answerDelayMs) setTimeout(callback, options.answerDelayMs);
        else callback();
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve(server));
  });
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const arg = (name: string, fallback: string) => {
    const at = process.argv.indexOf(name);
    return at > -1 ? process.argv[at + 1]! : fallback;
  };
  const port = Number(arg("--port", "2525"));
  const dir = path.resolve(arg("--dir", ".tmp/mail"));
  await startMailCatcher({ port, dir });
  console.log(`Mail catcher on smtp://127.0.0.1:${port}, writing to ${dir}`);
}
