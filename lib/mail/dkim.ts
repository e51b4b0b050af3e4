/**
 * DKIM: every message the site sends is signed by nodemailer with the key the environment names
 * (MAIL_DKIM_SELECTOR with MAIL_DKIM_PRIVATE_KEY or MAIL_DKIM_PRIVATE_KEY_FILE), for MAIL_FROM's
 * domain unless MAIL_DKIM_DOMAIN names another. Without a key the site still sends, unsigned, and
 * says so at start. `npm run waitlist -- mail dkim-key` makes a key and the record to publish.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";

/** What nodemailer's `dkim` option takes. */
export type DkimSettings = { domainName: string; keySelector: string; privateKey: string };

type DkimEnv = {
  MAIL_FROM?: string;
  MAIL_DKIM_SELECTOR?: string;
  MAIL_DKIM_DOMAIN?: string;
  MAIL_DKIM_PRIVATE_KEY?: string;
  MAIL_DKIM_PRIVATE_KEY_FILE?: string;
};

/** A DKIM setting that cannot work: the site refuses to start rather than send mail that fails its checks. */
export class DkimKeyProblem extends Error {}

/** The domain of a sender, "FieldCrew <hello@fieldcrew.app>" or hello@fieldcrew.app: fieldcrew.app. */
export function senderDomain(from: string): string | null {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  const at = address.lastIndexOf("@");
  return at < 0
    ? null
    : address
        .slice(at + 1)
        .trim()
        .toLowerCase() || null;
}

function keyOf(env: DkimEnv): string | null {
  if (env.MAIL_DKIM_PRIVATE_KEY && env.MAIL_DKIM_PRIVATE_KEY_FILE) {
    throw new DkimKeyProblem("Set MAIL_DKIM_PRIVATE_KEY or MAIL_DKIM_PRIVATE_KEY_FILE, not both.");
  }
  // A key in one line of an environment file has its line breaks written as \n.
  if (env.MAIL_DKIM_PRIVATE_KEY) return env.MAIL_DKIM_PRIVATE_KEY.replace(/\\n/g, "\n");
  if (!env.MAIL_DKIM_PRIVATE_KEY_FILE) return null;
  try {
    return readFileSync(env.MAIL_DKIM_PRIVATE_KEY_FILE, "utf8");
  } catch (error) {
    throw new DkimKeyProblem(`Cannot read MAIL_DKIM_PRIVATE_KEY_FILE (${env.MAIL_DKIM_PRIVATE_KEY_FILE}): ${(error as Error).message}.`);
  }
}

/** The signing settings, or null when no key is configured; throws DkimKeyProblem for one that cannot work. */
export function dkimFromEnv(env: DkimEnv): DkimSettings | null {
  const privateKey = keyOf(env);
  if (!privateKey && !env.MAIL_DKIM_SELECTOR) return null;
  if (!privateKey)
    throw new DkimKeyProblem("MAIL_DKIM_SELECTOR is set without a key: set MAIL_DKIM_PRIVATE_KEY_FILE (or MAIL_DKIM_PRIVATE_KEY) too.");
  if (!env.MAIL_DKIM_SELECTOR)
    throw new DkimKeyProblem("A DKIM key is set without MAIL_DKIM_SELECTOR, the name its public record is published under.");
  try {
    createPrivateKey(privateKey);
  } catch {
    throw new DkimKeyProblem("The DKIM key is not a private key in PEM form (make one with npm run waitlist -- mail dkim-key).");
  }
  const domainName = env.MAIL_DKIM_DOMAIN ?? (env.MAIL_FROM ? senderDomain(env.MAIL_FROM) : null);
  if (!domainName) throw new DkimKeyProblem("Set MAIL_DKIM_DOMAIN, or MAIL_FROM with an address: the domain the signature is for.");
  return { domainName, keySelector: env.MAIL_DKIM_SELECTOR, privateKey };
}

/** The TXT record that publishes a private key's public half: "v=DKIM1; k=rsa; p=…". */
export function dkimRecord(privateKey: string): string {
  const publicKey = createPublicKey(privateKey).export({ type: "spki", format: "der" }).toString("base64");
  return `v=DKIM1; k=rsa; p=${publicKey}`;
}

/** A new 2048-bit RSA key (what every mailbox provider verifies) in PEM form. */
export function newDkimKey(): string {
  return generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
}

/** A TXT value as DNS zone files and most DNS consoles take a long one: quoted strings of at most 255 characters. */
export function txtStrings(value: string): string {
  const parts: string[] = [];
  for (let i = 0; i < value.length; i += 255) parts.push(`"${value.slice(i, i + 255)}"`);
  return parts.join(" ");
}
