/**
 * DKIM: every message the site sends is signed by nodemailer with the key the environment names
 * (MAIL_DKIM_SELECTOR with MAIL_DKIM_PRIVATE_KEY or MAIL_DKIM_PRIVATE_KEY_FILE), for MAIL_FROM's
 * domain unless MAIL_DKIM_DOMAIN names another. Without a key the site still sends, unsigned, and
 * says so at start. `npm run waitlist -- mail dkim-key` makes a key and the record to publish.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto";
import { readFileSync, statSync } from "node:fs";

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

/** The smallest RSA key the site signs with (RFC 8301 requires 1024 to be verified; 2048 is what providers expect). */
const MIN_RSA_BITS = 2048;

/** A warning when MAIL_DKIM_PRIVATE_KEY_FILE can be read by others than its owner; null when it cannot (or no file is set). */
export function dkimKeyFileWarning(env: DkimEnv): string | null {
  if (!env.MAIL_DKIM_PRIVATE_KEY_FILE) return null;
  let mode: number;
  try {
    mode = statSync(env.MAIL_DKIM_PRIVATE_KEY_FILE).mode;
  } catch {
    return null; // dkimFromEnv says why it cannot be read
  }
  if ((mode & 0o044) === 0) return null;
  return `The DKIM key file ${env.MAIL_DKIM_PRIVATE_KEY_FILE} can be read by other users (mode ${(mode & 0o777).toString(8).padStart(4, "0")}): anyone who reads it can sign mail as you. Make it the site's user's alone: chmod 600 ${env.MAIL_DKIM_PRIVATE_KEY_FILE}`;
}

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
  let key;
  try {
    key = createPrivateKey(privateKey);
  } catch {
    throw new DkimKeyProblem("The DKIM key is not a private key in PEM form (make one with npm run waitlist -- mail dkim-key).");
  }
  // The site signs rsa-sha256 (nodemailer's only algorithm here): another kind of key makes a
  // signature receivers reject, and RSA under 2048 bits is a weak key that Gmail and others ignore.
  if (key.asymmetricKeyType !== "rsa")
    throw new DkimKeyProblem(
      `The DKIM key is ${key.asymmetricKeyType?.toUpperCase() ?? "not an asymmetric key"}, not RSA: the site signs rsa-sha256. Make an RSA key with npm run waitlist -- mail dkim-key.`,
    );
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS)
    throw new DkimKeyProblem(
      `The DKIM key is RSA of ${bits} bits; at least ${MIN_RSA_BITS} are needed to be trusted. Make one with npm run waitlist -- mail dkim-key.`,
    );
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
