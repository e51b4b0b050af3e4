/**
 * The link in the confirmation email that leads a visitor to their own entry
 * (/waitlist/entry/<token>). The token is the entry's random public id and an
 * HMAC of it with WAITLIST_SECRET: it cannot be guessed (no sequential ids, no
 * email in it), nor made up or altered without the secret. Nothing is looked
 * up before the signature checks out.
 */
import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { ENTRY_PAGE_PATH, UNSUBSCRIBE_PATH } from "../content/paths";

const PUBLIC_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/**
 * What a token lets its holder do: open the visitor's page ("entry"), or stop the site's mail to
 * the entry ("unsubscribe", the List-Unsubscribe address of every message).
 */
type Purpose = "entry" | "unsubscribe";

function signatureOf(secret: string, publicId: string, purpose: Purpose): Buffer {
  // The purpose is part of what is signed, so one purpose's token (or a question's) is never valid for another.
  return createHmac("sha256", secret).update(`waitlist-${purpose}:${publicId}`).digest();
}

export function entryToken(secret: string, publicId: string, purpose: Purpose = "entry"): string {
  return `${publicId}.${signatureOf(secret, publicId, purpose).toString("base64url")}`;
}

/** The public id a token carries, or null when the token is malformed, made up, altered or for another purpose. */
export function publicIdFromToken(secret: string, token: string, purpose: Purpose = "entry"): string | null {
  const [publicId, signature, ...rest] = token.split(".");
  if (rest.length > 0 || !publicId || !signature || !PUBLIC_ID.test(publicId) || !SIGNATURE.test(signature)) return null;
  // Compared as text, not as decoded bytes: the last base64 character carries two unused bits,
  // so another spelling of the same bytes would pass a byte comparison as an altered link.
  const expected = Buffer.from(signatureOf(secret, publicId, purpose).toString("base64url"));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? publicId : null;
}

/** The absolute link for an email: SITE_URL, the page, the token. */
export function entryUrl(siteUrl: string, token: string): string {
  return new URL(`${ENTRY_PAGE_PATH}/${token}`, siteUrl).toString();
}

/**
 * The headers of one-click unsubscribe (RFC 8058) on every message to a visitor: the address of
 * their entry's own (opaque, signed) unsubscribe link, and that a POST to it is all it takes.
 */
export function unsubscribeHeaders(siteUrl: string, secret: string, publicId: string): Record<string, string> {
  const address = new URL(`${UNSUBSCRIBE_PATH}/${entryToken(secret, publicId, "unsubscribe")}`, siteUrl).toString();
  return { "List-Unsubscribe": `<${address}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/** What an email not sent because its entry unsubscribed says in `deliveries` (./unsubscribe.ts). */
export const UNSUBSCRIBED_PROBLEM = "unsubscribed: the visitor asked for no more mail";
/** What an email not sent because the address bounced says in `deliveries` (./bounces.ts). */
export const MAIL_SUPPRESSED_PROBLEM = "suppressed: the address bounced (lift it with npm run waitlist -- mail unsuppress)";
