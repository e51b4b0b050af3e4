/**
 * The envelope sender of each message to a visitor (VERP): MAIL_BOUNCE_ADDRESS with a tag of its
 * own after a "+", `bounces+<tag>@fieldcrew.app`. A mail system that cannot deliver the message
 * sends its report to that address, so the report names the message it is about. The tag is the
 * outbox row's id and an HMAC of it with the site's secret: nobody who has not received the
 * message can make one, so a report sent by anyone else changes nothing (lib/waitlist/bounce-reports.ts).
 *
 * Lower-case base32: mail systems may change the case of a local part, and 42 characters leave
 * room for a bounce mailbox name of up to 21 within the 64 that RFC 5321 allows a local part.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** What separates the bounce mailbox from the tag: Postfix's recipient_delimiter, Exim's and most hosted mail's. */
const TAG_DELIMITER = "+";
/** RFC 5321's longest local part. */
const MAX_LOCAL_PART = 64;
const ID_BYTES = 16;
const MAC_BYTES = 10;
const TAG_LENGTH = Math.ceil(((ID_BYTES + MAC_BYTES) * 8) / 5);
/** The longest bounce mailbox name that still leaves room for the delimiter and a tag. */
const MAX_BOUNCE_MAILBOX = MAX_LOCAL_PART - TAG_DELIMITER.length - TAG_LENGTH;

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let text = "";
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      text += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) text += ALPHABET[(value << (5 - bits)) & 31];
  return text;
}

function fromBase32(text: string): Buffer | null {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const character of text) {
    const digit = ALPHABET.indexOf(character);
    if (digit < 0) return null;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

function macOf(secret: string, id: Buffer): Buffer {
  // Its own purpose, so no other signature of the site's (links, questions) is ever a valid tag.
  return createHmac("sha256", secret).update("bounce-tag:").update(id).digest().subarray(0, MAC_BYTES);
}

/** The mailbox and domain of an address, split at its last "@". */
function partsOf(address: string): { mailbox: string; domain: string } {
  const at = address.lastIndexOf("@");
  return { mailbox: address.slice(0, at), domain: address.slice(at + 1) };
}

/** The envelope sender for the delivery with this id; the plain bounce address when the id is not a UUID. */
export function taggedBounceAddress(bounceAddress: string, deliveryId: string, secret: string): string {
  if (!UUID.test(deliveryId)) return bounceAddress;
  const id = Buffer.from(deliveryId.replaceAll("-", ""), "hex");
  const { mailbox, domain } = partsOf(bounceAddress);
  return `${mailbox}${TAG_DELIMITER}${base32(Buffer.concat([id, macOf(secret, id)]))}@${domain}`;
}

/**
 * The delivery id an address's tag names, when the address is the bounce mailbox with a tag the
 * site made; null for anything else (no tag, another mailbox, a tag made up or altered).
 */
export function deliveryIdOfBounceAddress(address: string, bounceAddress: string, secret: string): string | null {
  const { mailbox } = partsOf(address.trim().toLowerCase());
  const prefix = `${partsOf(bounceAddress.toLowerCase()).mailbox}${TAG_DELIMITER}`;
  if (!mailbox.startsWith(prefix)) return null;
  const tag = mailbox.slice(prefix.length);
  if (tag.length !== TAG_LENGTH) return null;
  const bytes = fromBase32(tag);
  // Compared as text too: the last character carries two unused bits, so another spelling of the
  // same bytes would pass as an altered tag.
  if (!bytes || bytes.length < ID_BYTES + MAC_BYTES || base32(bytes.subarray(0, ID_BYTES + MAC_BYTES)) !== tag) return null;
  const id = bytes.subarray(0, ID_BYTES);
  if (!timingSafeEqual(bytes.subarray(ID_BYTES, ID_BYTES + MAC_BYTES), macOf(secret, id))) return null;
  const hex = id.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Why MAIL_BOUNCE_ADDRESS cannot carry tags, in one sentence, or null when it can. */
export function bounceAddressProblem(bounceAddress: string): string | null {
  const { mailbox } = partsOf(bounceAddress);
  if (mailbox.includes(TAG_DELIMITER))
    return `MAIL_BOUNCE_ADDRESS must have no "${TAG_DELIMITER}" before the @: the site adds one, with each message's own tag after it.`;
  if (mailbox.length > MAX_BOUNCE_MAILBOX)
    return `MAIL_BOUNCE_ADDRESS must have at most ${MAX_BOUNCE_MAILBOX} characters before the @, to leave room for each message's tag (such as bounces@fieldcrew.app).`;
  return null;
}
