/**
 * What every new sign-up is owed: the created webhook and, for an address never mailed before, the
 * confirmation email. A sign-up's insert writes none of it (./store.ts): every entry past
 * signup_deliveries_state.owed_up_to is owed its deliveries, and the delivery worker writes them
 * before each claim (./deliveries.ts). So the insert stays one statement with deliveries on, and a
 * stored sign-up still always gets them: an entry stored while no worker ran is owed when one runs.
 *
 * Moving the mark is what writes the outbox rows (a trigger, in the same statement), and it moves
 * only from where this pass read it, so two instances never owe an entry twice. An instance with
 * no delivery configured moves the mark too, owing nothing: turning mail on later does not mail
 * everyone who joined while it was off.
 */
import "server-only";
import { createHmac } from "node:crypto";
import { Prisma, temporaryKind, WITHOUT_SYNC, WITHOUT_WAITING, type Database } from "../db";
import { timestamp } from "../time";
import { orderedUuid } from "../ordered-id";
import type { DeliveryKind } from "../outbox/worker";
import { domainOf } from "../mail/address";
import { normalizeEmail } from "./schema";

/** Entries owed per statement at most: every other query waits while it writes their outbox rows. */
const OWE_PASS_ROWS = 25;

/**
 * How confirmation_recipients knows an address without keeping it: HMAC-SHA256 of the normalised
 * address with the site's secret. It survives the entry's removal, and cannot be turned back into
 * the address without the secret.
 */
function recipientKey(secret: string, email: string): string {
  return createHmac("sha256", secret)
    .update(`confirmation-recipient:${normalizeEmail(email)}`)
    .digest("hex");
}

type Unowed = { mark: bigint | number; id: bigint | number | null; email_normalized: string | null };

/**
 * Owes the next entries past the mark (at most `batch`) what `kinds` says; returns how many entries
 * it passed. `secret` keys the recipients' record.
 */
export async function oweNewSignups(
  database: Database,
  kinds: readonly DeliveryKind[],
  secret: string,
  now = new Date(),
  batch = OWE_PASS_ROWS,
): Promise<number> {
  // A read first: with nothing new, no write, no lock taken, no sync.
  const unowed = await database.$queryRaw<Unowed[]>`
    SELECT state.owed_up_to AS mark, entry.id, entry.email_normalized FROM signup_deliveries_state AS state
    LEFT JOIN (SELECT id, email_normalized FROM waitlist_entries WHERE id > (SELECT owed_up_to FROM signup_deliveries_state) ORDER BY id LIMIT ${batch}) AS entry ON true`;
  const entries = unowed.filter((row) => row.id !== null);
  if (entries.length === 0) return 0;
  // [outbox id, kind, entry id, recipient key, throttle key]. An email's throttle key is its
  // canonical address's domain, so MAIL_MAX_PER_DOMAIN_PER_HOUR counts every spelling of a domain together.
  const rows = entries.flatMap(({ id, email_normalized: email }) =>
    kinds.map((kind) =>
      kind === "email"
        ? [orderedUuid(), kind, Number(id), recipientKey(secret, email!), domainOf(email!)]
        : [orderedUuid(), kind, Number(id), null, null],
    ),
  );
  const owing = JSON.stringify({ at: timestamp(now), rows });
  // The commit needs no sync of its own (lost to a power cut, it is lost with its mark and made
  // again), and it does not wait for another process's lock: the next look tries again (lib/db).
  try {
    const moved = await database.$queryRaw<unknown[]>`${Prisma.raw(WITHOUT_SYNC + WITHOUT_WAITING)}
      UPDATE signup_deliveries_state SET owed_up_to = ${Number(entries.at(-1)!.id)}, owing = ${owing}
      WHERE id = 1 AND owed_up_to = ${Number(unowed[0]!.mark)} RETURNING id`;
    return moved.length === 0 ? 0 : entries.length;
  } catch (error) {
    if (temporaryKind(error) === "database_busy") return 0;
    throw error;
  }
}

/** The delivery worker's `owe` (lib/outbox/worker.ts): one pass of at most `max` entries; true when it was full, so more may be owed. */
export function owingNewSignups(
  secret: string,
): (database: Database, kinds: readonly DeliveryKind[], now: Date, max: number) => Promise<boolean> {
  return async (database, kinds, now, max) => {
    const batch = Math.min(max, OWE_PASS_ROWS);
    return (await oweNewSignups(database, kinds, secret, now, batch)) >= batch;
  };
}
