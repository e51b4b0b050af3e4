/**
 * Who a visit is, as far as counting needs and no further: a keyed hash of the day's random
 * salt with the client's truncated address and browser family. Nothing that goes into it is
 * stored. The salt is made once a UTC day (shared by every instance through the database)
 * and deleted when the day is over (lib/analytics/sweep.ts), after which nobody, us included,
 * can tell whether two days' visitors were the same person.
 */
import "server-only";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { isIPv6 } from "node:net";
import { whileBusy, type Database } from "../db";
import { limitKeyOf } from "../security/rate-limit";

/**
 * The address with its host part cut off: an IPv4 address's /24, an IPv6 address's /48 (as
 * web analytics that anonymise addresses do). Everyone behind one /24 with the same browser
 * family is one visitor of the day: an undercount we accept for not keeping the address.
 */
export function truncatedAddress(address: string): string {
  if (isIPv6(address)) return limitKeyOf(address).split(":").slice(0, 3).join(":") + "::/48";
  const octets = address.split(".");
  return octets.length === 4 ? `${octets.slice(0, 3).join(".")}.0/24` : address;
}

/** The browser family of a user agent: the only part of it that goes into the hash. */
function browserFamily(userAgent: string): string {
  if (/\bEdg(e|A|iOS)?\//.test(userAgent)) return "edge";
  if (/\bOPR\/|\bOpera\b/.test(userAgent)) return "opera";
  if (/\bSamsungBrowser\//.test(userAgent)) return "samsung";
  if (/\bFirefox\/|\bFxiOS\//.test(userAgent)) return "firefox";
  if (/\bChrome\/|\bCriOS\/|\bChromium\//.test(userAgent)) return "chrome";
  if (/\bSafari\//.test(userAgent)) return "safari";
  return "other";
}

/** Phone or desktop, for page speed: browsers on phones say "Mobi" in the user agent (tablets do not). */
export function deviceOf(userAgent: string): "phone" | "desktop" {
  return /Mobi/i.test(userAgent) ? "phone" : "desktop";
}

/** Keyed hash, short: 16 bytes of HMAC-SHA-256 in base64url. */
function keyedHash(salt: string, text: string): string {
  return createHmac("sha256", salt).update(text).digest("base64url").slice(0, 22);
}

/** The visitor of the day: salt + truncated address + browser family. */
export function visitorHash(salt: string, address: string, userAgent: string): string {
  return keyedHash(salt, `visitor|${truncatedAddress(address)}|${browserFamily(userAgent)}`);
}

/** The client address as the per-address cap counts it (an IPv6 /64 as one), keyed with the day's salt. */
export function addressHash(salt: string, address: string): string {
  return keyedHash(salt, `address|${limitKeyOf(address)}`);
}

/** What marks one visitor as counted in one row of the day's figures (visit_marks). */
export function markOf(visitor: string, row: string): string {
  return createHash("sha256").update(`${visitor}|${row}`).digest("base64url").slice(0, 22);
}

/**
 * The day's salt. Every instance asks the database, which keeps the first one made (a new
 * random one, inserted only when the day has none), so all instances hash alike. Kept in
 * memory for the rest of the day.
 */
export class DailySalt {
  private current: { day: string; salt: Promise<string> } | undefined;

  constructor(private readonly database: () => Database) {}

  /** The salt of `day`; the requests of a new day's first moment share one lookup. */
  of(day: string): Promise<string> {
    if (this.current?.day !== day) {
      const salt = this.read(day);
      this.current = { day, salt };
      // A failed lookup (a locked database) is tried again by the next request, not remembered.
      salt.catch(() => {
        if (this.current?.salt === salt) this.current = undefined;
      });
    }
    return this.current.salt;
  }

  private async read(day: string): Promise<string> {
    const database = this.database();
    // Another instance may be writing: wait as a sign-up would (libSQL's engine does not wait at all).
    await whileBusy(
      database,
      (db) =>
        db.$executeRaw`INSERT INTO visit_salts (day, salt) VALUES (${day}, ${randomBytes(32).toString("base64url")}) ON CONFLICT DO NOTHING`,
    );
    const row = await database.visitSalt.findUnique({ where: { day } });
    if (!row) throw new Error(`the salt of ${day} was deleted while it was being read`);
    return row.salt;
  }
}
