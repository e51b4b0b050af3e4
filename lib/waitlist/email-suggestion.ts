/**
 * "Did you mean …?" for a mistyped email domain (gmial.com, hotmial.com,
 * yaho.com, outlok.com), through @zootools/email-spell-checker: a small list of
 * popular domains and a string distance, nothing sent anywhere. Browser-safe: the
 * dialog runs it as the visitor types. It only suggests; it never refuses.
 */
import { run } from "@zootools/email-spell-checker";

/** Something that looks like a whole address: a local part, "@", and a domain with a dot. */
const COMPLETE_ADDRESS = /^[^@\s]+@[^@\s]+\.[^@\s.]{2,}$/;

/** The address with the domain it was probably meant to have, or null when it looks right (or is not finished). */
export function suggestEmail(email: string): string | null {
  const address = email.trim();
  if (!COMPLETE_ADDRESS.test(address)) return null;
  const suggestion = run({ email: address });
  if (!suggestion) return null;
  // The library lower-cases the whole address; keep the local part as typed.
  return `${address.slice(0, address.lastIndexOf("@"))}@${suggestion.domain}`;
}
