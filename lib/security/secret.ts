/**
 * The site's one secret: it signs the security questions, the links to
 * visitors' own pages, and keys the hashes of addresses already mailed. Every
 * instance must use the same one, and it must outlive a restart, or questions
 * and links stop working.
 *
 * - WAITLIST_SECRET, when set (required with a libSQL server: instances on
 *   several machines cannot share a file).
 * - Otherwise, with the embedded database, a secret file beside the database
 *   (`<database>.secret`, mode 0600), made on first start and read ever after:
 *   `npm start` on a fresh clone just works, links survive restarts, and
 *   instances sharing the database file share the secret file too.
 *
 * A process never signs with a key of its own.
 */
import "server-only";
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { databaseSettings, parseEnv, type Env } from "../env";
import { singleton } from "../singleton";

/** The least length of a secret, as WAITLIST_SECRET's check says. */
const MIN_LENGTH = 32;

/** The secret cannot be had: the server must not start (its message says what to set). */
export class SecretUnavailable extends Error {}

/** Where the secret file of a database file is kept. */
export function secretFileOf(databaseFile: string): string {
  return `${databaseFile}.secret`;
}

/**
 * Reads the secret file, or creates it if there is none. Created exclusively (O_EXCL),
 * so two instances starting at once end up with the one that was written first.
 */
export function readOrCreateSecretFile(file: string): string {
  const existing = readSecretFile(file);
  if (existing) return existing;
  const secret = randomBytes(32).toString("hex");
  let descriptor: number;
  try {
    descriptor = openSync(file, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return waitForSecretFile(file);
    throw new SecretUnavailable(
      `Cannot create the secret file ${file}: ${(error as Error).message}. Set WAITLIST_SECRET instead (openssl rand -hex 32).`,
    );
  }
  try {
    writeSync(descriptor, `${secret}\n`);
  } finally {
    closeSync(descriptor);
  }
  return secret;
}

function readSecretFile(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new SecretUnavailable(`Cannot read the secret file ${file}: ${(error as Error).message}.`);
  }
  if (text.length >= MIN_LENGTH) return text;
  return null;
}

/** Another instance is writing the file this moment: read it once it is complete. */
function waitForSecretFile(file: string): string {
  for (let tries = 0; tries < 100; tries += 1) {
    const secret = readSecretFile(file);
    if (secret) return secret;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
  throw new SecretUnavailable(
    `The secret file ${file} is empty or shorter than ${MIN_LENGTH} characters. Remove it (links in emails already sent stop working) or set WAITLIST_SECRET.`,
  );
}

/** The secret for this environment; throws SecretUnavailable when there can be none. */
export function resolveSecret(env: Env): string {
  if (env.WAITLIST_SECRET) return env.WAITLIST_SECRET;
  const settings = databaseSettings(env);
  if (!settings.file) {
    throw new SecretUnavailable(
      "WAITLIST_SECRET must be set with a libSQL/Turso DATABASE_URL: every instance needs the same secret, " +
        "and instances on several machines cannot share a file. Set the same value on each (openssl rand -hex 32).",
    );
  }
  return readOrCreateSecretFile(secretFileOf(settings.file));
}

/** The process's secret, from the environment (lib/singleton.ts): read once, the same in every bundle. */
export function siteSecret(): string {
  return singleton("secret", () => resolveSecret(parseEnv()));
}
