/**
 * The operator tool's mail commands (docs/operations.md, "Mail that reaches the inbox"): a DKIM key
 * and the DNS record that publishes it. lib/mail/ does the work.
 */
import "server-only";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { databaseSettings, parseEnv } from "../env";
import { DkimKeyProblem, dkimFromEnv, dkimRecord, newDkimKey, senderDomain, txtStrings } from "../mail/dkim";
import { checkMailDns, DnsServerProblem } from "../mail/dns-check";
import { shellActor } from "../audit/trail";
import type { Database } from "../db";
import { liftSuppression } from "../waitlist/bounces";
import { UsageError, write, type CliIo } from "./io";
import { terminalSafe } from "../console/format";

export const MAIL_USAGE = `  mail dkim-key  A new DKIM key: the private key written to a file only this user can read
           (beside the embedded database unless --out says where; never in the repository),
           and the DNS record to publish and the settings to give the site, printed
             --selector NAME    required: the name the record is published under (e.g. fc2026)
             --domain DOMAIN    the sending domain (default: MAIL_FROM's)
             --out FILE         where to write the private key
  mail check  The sending domain's MX, SPF, DKIM (matched against the configured key) and DMARC
           records: what is missing or wrong, and the exact record to add
             --domain DOMAIN    the sending domain (default: the DKIM domain, or MAIL_FROM's)
             --dns HOST[:PORT]  ask this DNS server instead of the system's
  mail unsuppress  Mail an address again after it bounced (the mailbox works again); audited
             --email ADDRESS    required
`;

const SELECTOR = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** Where the key goes when --out does not say: beside the embedded database (git-ignored). */
function defaultKeyFile(selector: string): string {
  const { file } = databaseSettings(parseEnv());
  if (!file) throw new UsageError("DATABASE_URL names a libSQL/Turso server: say where to write the key with --out FILE.");
  return path.join(path.dirname(file), `dkim-${selector}.pem`);
}

async function dkimKeyCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { selector: { type: "string" }, domain: { type: "string" }, out: { type: "string" } },
  });
  if (!values.selector) throw new UsageError("mail dkim-key needs --selector NAME, e.g. --selector fc2026.");
  if (!SELECTOR.test(values.selector)) throw new UsageError("A selector is letters, digits and hyphens (one DNS label), e.g. fc2026.");
  const env = parseEnv();
  const domain = values.domain?.toLowerCase() ?? (env.MAIL_FROM ? senderDomain(env.MAIL_FROM) : null);
  const file = path.resolve(values.out ?? defaultKeyFile(values.selector));
  const privateKey = newDkimKey();
  try {
    // Never over another key (one already published would stop matching), readable by this user alone.
    writeFileSync(file, privateKey, { flag: "wx", mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "EEXIST"
        ? "it exists (a key already published would stop matching); choose another --out or --selector"
        : (error as Error).message;
    await write(io.stderr, `Cannot write the key to ${file}: ${why}. Nothing was made.\n`);
    return 1;
  }
  const name = `${values.selector}._domainkey.${domain ?? "<your sending domain>"}`;
  await write(
    io.stdout,
    [
      `Wrote the private key to ${file} (readable by this user only). Keep it out of the repository and back it up with the site's secrets.`,
      "",
      "1. Publish this TXT record in the sending domain's DNS:",
      `   name:  ${name}`,
      `   value: ${txtStrings(dkimRecord(privateKey))}`,
      "",
      "2. Give the site these settings (then restart it):",
      `   MAIL_DKIM_SELECTOR=${values.selector}`,
      `   MAIL_DKIM_PRIVATE_KEY_FILE=${file}`,
      ...(values.domain && domain !== (env.MAIL_FROM ? senderDomain(env.MAIL_FROM) : null) ? [`   MAIL_DKIM_DOMAIN=${domain}`] : []),
      "",
      "The site signs every message from its next start; until the record is published, receivers cannot check the signature.",
      "",
    ].join("\n"),
  );
  return 0;
}

async function unsuppressCommand(db: Database, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { email: { type: "string" } } });
  if (!values.email) throw new UsageError("mail unsuppress needs --email ADDRESS.");
  if (!(await liftSuppression(db, values.email, shellActor()))) {
    await write(io.stderr, `No suppressed address ${terminalSafe(values.email)} on the list.\n`);
    return 1;
  }
  await write(io.stdout, `${terminalSafe(values.email)} gets mail again (recorded in the audit log).\n`);
  return 0;
}

async function checkCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { domain: { type: "string" }, dns: { type: "string" } } });
  const env = parseEnv();
  let dkim;
  try {
    dkim = dkimFromEnv(env);
  } catch (error) {
    if (!(error instanceof DkimKeyProblem)) throw error;
    await write(io.stderr, `${error.message}\n`);
    return 1;
  }
  const domain = values.domain?.toLowerCase() ?? dkim?.domainName ?? (env.MAIL_FROM ? senderDomain(env.MAIL_FROM) : null);
  if (!domain) throw new UsageError("Name the sending domain: --domain DOMAIN (or set MAIL_FROM).");
  const smtpHost = env.SMTP_URL ? new URL(env.SMTP_URL).hostname : null;
  let checks;
  try {
    checks = await checkMailDns({ domain, dkim, smtpHost, dnsServer: values.dns });
  } catch (error) {
    if (!(error instanceof DnsServerProblem)) throw error;
    throw new UsageError(error.message);
  }
  // What DNS answered is anyone's text: control characters and escapes could fake or erase a line.
  const lines = checks.map((check) => `${check.ok ? "ok     " : "MISSING"} ${check.name.padEnd(5)} ${terminalSafe(check.says)}`);
  const wrong = checks.filter((check) => !check.ok).length;
  const summary =
    wrong === 0 ? `${domain} is set up for mail that reaches the inbox.` : `${wrong} of ${checks.length} to fix for ${domain}.`;
  await write(io.stdout, `${lines.join("\n")}\n\n${summary}\n`);
  return wrong === 0 ? 0 : 1;
}

/** `mail <subcommand>`. */
export async function mailCommand(db: Database, args: string[], io: CliIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === "dkim-key") return dkimKeyCommand(rest, io);
  if (subcommand === "unsuppress") return unsuppressCommand(db, rest, io);
  if (subcommand === "check") return checkCommand(rest, io);
  throw new UsageError(subcommand ? `Unknown mail command "${subcommand}".` : "Name a mail command: dkim-key, check or unsuppress.");
}
