/**
 * /.well-known/security.txt (RFC 9116): whom to tell about a security problem (SECURITY_CONTACT),
 * until when the file holds (a year ahead of each request, so never in the past), its own address,
 * and the language to write in.
 */
import type { Env } from "../env";

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
const SECURITY_TXT_PATH = "/.well-known/security.txt";

export function securityTxt(env: Pick<Env, "SECURITY_CONTACT" | "SITE_URL">, now: Date): string {
  return [
    `Contact: ${env.SECURITY_CONTACT}`,
    `Expires: ${new Date(now.getTime() + YEAR_MS).toISOString().replace(/\.\d{3}Z$/, "Z")}`,
    `Canonical: ${new URL(SECURITY_TXT_PATH, env.SITE_URL).toString()}`,
    "Preferred-Languages: en",
    "",
  ].join("\n");
}
