/**
 * The delivery worker's SQL (./worker.ts schedules; this is what it says to the database). Every
 * statement costs the same whatever the history (docs/performance.md, "Launch day"): the due rows
 * come from the front of two indexes of pending rows, the hourly caps from counts per minute
 * (outbox_sent_minutes, kept by triggers), the outcomes of a moment are one UPDATE, and delivered
 * rows older than a week are deleted a few hundred at a time.
 */
import "server-only";
import { Prisma, WITHOUT_SYNC, WITHOUT_WAITING } from "../db";

/**
 * The kinds of delivery: "webhook" and "email" are what a new sign-up is owed (SIGNUP_KINDS), and
 * "update" an email the team sends to part of the list (lib/updates/). Each kind has its own
 * places and claim, so a 100,000-entry update never stands in front of a sign-up's confirmation.
 */
export const DELIVERY_KINDS = ["webhook", "email", "update"] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];
export const SIGNUP_KINDS = ["webhook", "email"] as const satisfies readonly DeliveryKind[];

const MINUTE_MS = 60_000;
/**
 * A cap counts the minute it is read in and the 60 before it: what was sent in one minute is
 * counted for 60 to 61 minutes, so no hour, wherever it starts, holds more than the cap.
 */
const CAP_WINDOW_MINUTES = 61;
/** Delivered rows are kept a week (the entry stays in waitlist_entries), then deleted. */
const KEEP_DELIVERED_MS = 7 * 24 * 60 * MINUTE_MS;
/** At a million rows a delete of 200 held the database up to 52 ms; 50 stay near 10. */
export const PRUNE_BATCH = 50;
/**
 * Claims and outcomes commit without a sync of their own and never wait in SQLite for another
 * process's lock (lib/db): a claim or outcome lost to a power cut only makes a delivery go out
 * again (at least once, as a crash already may), the next sign-up's commit syncs them, and a lock
 * is waited out by whileBusy between tries, with the site's connection free for sign-ups.
 */
const OWN_WRITE = Prisma.raw(WITHOUT_SYNC + WITHOUT_WAITING);

/** `claimed_minute` is null on a row the claim only put off (its key's cap is reached). */
export type ClaimedRow = {
  id: string;
  kind: DeliveryKind;
  entry_id: bigint | number;
  attempts: bigint | number;
  event: string;
  payload: string | null;
  claimed_minute: bigint | number | null;
};

/** One outcome as the record statement takes it: [id, status, next attempt (stored form) or null, last error or null, attempts given back]. */
export type OutcomeRow = [
  id: string,
  status: "delivered" | "pending" | "failed",
  next: string | null,
  problem: string | null,
  givenBack: 0 | 1,
];

/**
 * The outcomes of a moment in one statement, only for rows `owner` still holds. Delivered rows get
 * their time; the others are due again at their next attempt, or failed. Returns the failed ids.
 */
export function recordStatement(outcomes: OutcomeRow[], owner: string, now: number): Prisma.Sql {
  return Prisma.sql`${OWN_WRITE}
      UPDATE outbox SET
        status = CASE WHEN outcome.value ->> 1 = 'pending' THEN outbox.status ELSE outcome.value ->> 1 END,
        delivered_at = CASE WHEN outcome.value ->> 1 = 'delivered' THEN ${new Date(now)} END,
        next_attempt_at = coalesce(outcome.value ->> 2, outbox.next_attempt_at),
        last_error = outcome.value ->> 3,
        attempts = outbox.attempts - (outcome.value ->> 4),
        lease_owner = NULL,
        lease_expires_at = NULL,
        handed_over_at = CASE WHEN outcome.value ->> 1 = 'delivered' THEN outbox.handed_over_at END
      FROM json_each(${JSON.stringify(outcomes)}) AS outcome
      WHERE outbox.id = outcome.value ->> 0 AND outbox.lease_owner = ${owner}
      RETURNING CASE WHEN outbox.status = 'failed' THEN outbox.id END AS id`;
}

/** A batch of delivered rows older than a week (PRUNE_BATCH, oldest first); an update's rows are kept. */
export function pruneDeliveredStatement(now: number): Prisma.Sql {
  return Prisma.sql`${OWN_WRITE}
        DELETE FROM outbox WHERE id IN (
          SELECT id FROM outbox INDEXED BY outbox_prunable_idx
          WHERE status = 'delivered' AND update_id IS NULL AND delivered_at < ${new Date(now - KEEP_DELIVERED_MS)}
          ORDER BY delivered_at LIMIT ${PRUNE_BATCH})`;
}

/**
 * Marks these rows handed over (the sending thread is about to end their data), only while `owner`
 * still holds them; returns the ids it marked. A row not returned has lost its claim: its message
 * must not be finished.
 */
export function handOverStatement(ids: string[], owner: string, now: number): Prisma.Sql {
  return Prisma.sql`${OWN_WRITE}
      UPDATE outbox SET handed_over_at = ${new Date(now)}
      WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND lease_owner = ${owner} AND status = 'pending'
      RETURNING id`;
}

/**
 * Rows handed over whose instance died before it recorded the outcome: the mail server had the
 * whole message, so they are taken as delivered (and keep their count in the caps), never sent again.
 */
export function settleHandedOverStatement(now: number): Prisma.Sql {
  return Prisma.sql`${OWN_WRITE}
      UPDATE outbox INDEXED BY outbox_handed_over_idx SET
        status = 'delivered', delivered_at = handed_over_at, lease_owner = NULL, lease_expires_at = NULL,
        last_error = 'no answer after the message was handed over: taken as delivered'
      WHERE status = 'pending' AND handed_over_at IS NOT NULL AND lease_expires_at <= ${new Date(now)}`;
}

/** The caps' minutes older than two windows. */
export function pruneMinutesStatement(now: number): Prisma.Sql {
  return Prisma.sql`${OWN_WRITE}
        DELETE FROM outbox_sent_minutes WHERE minute < ${Math.floor(now / MINUTE_MS) - 2 * CAP_WINDOW_MINUTES}`;
}

type ClaimInput = {
  kind: DeliveryKind;
  /** Rows to claim at most, and of them retries at most. */
  room: number;
  retryRoom: number;
  /** ms since 1970. */
  now: number;
  owner: string;
  leaseMs: number;
  cap?: number;
  keyCap?: number;
  /** The kinds whose deliveries count against this kind's caps (itself when unset): emails and updates share the mail server's. */
  capKinds?: readonly DeliveryKind[];
};

/**
 * The claim of one kind as one statement, so two instances never claim one row and the caps hold
 * across instances: it reads the due rows (first attempts, then retries) from the front of their
 * indexes, numbers them overall and per throttle key, and claims a row only while its number stays
 * within what its kind and its key have left of their caps (counted per minute). A row over its
 * key's cap is put off until the key's oldest counted minute leaves the window, so rows of a key
 * that must wait never stand in front of the others. Exported for the tests' EXPLAIN.
 */
export function claimStatement({ kind, room, retryRoom, now, owner, leaseMs, cap, keyCap, capKinds = [kind] }: ClaimInput): Prisma.Sql {
  const nowDate = new Date(now);
  const minute = Math.floor(now / MINUTE_MS);
  const fromMinute = minute - CAP_WINDOW_MINUTES + 1;
  const leaseUntil = new Date(now + leaseMs);
  const kindLeft =
    cap === undefined
      ? Prisma.sql`${room}`
      : Prisma.sql`${cap} - (SELECT coalesce(sum(sent), 0) FROM outbox_sent_minutes WHERE kind IN (${Prisma.join(capKinds)}) AND throttle_key = '' AND minute >= ${fromMinute})`;
  // An update's rows wait while it is paused (lib/updates/); a handed-over row is never tried again.
  // With no update sending, the due rows' LIMIT is 0, which SQLite reads before it walks the index:
  // a paused update of 100,000 rows cost each claim 32 ms as a condition on the rows, 0.01 ms so.
  const updateSending = Prisma.sql`(SELECT 1 FROM mail_updates WHERE status = 'sending')`;
  const sending = kind === "update" ? Prisma.sql`AND update_id IN (SELECT id FROM mail_updates WHERE status = 'sending')` : Prisma.empty;
  const limitOf = (rows: number) =>
    kind === "update" ? Prisma.sql`CASE WHEN EXISTS ${updateSending} THEN ${rows} ELSE 0 END` : Prisma.sql`${rows}`;
  const keyLeft = keyCap === undefined ? Prisma.sql`${Number.MAX_SAFE_INTEGER}` : Prisma.sql`${keyCap} - coalesce(key_used.used, 0)`;
  return Prisma.sql`${OWN_WRITE}
    WITH due AS MATERIALIZED (
      SELECT id, throttle_key, next_attempt_at, 0 AS retry FROM (
        SELECT id, throttle_key, next_attempt_at FROM outbox INDEXED BY outbox_first_attempts_idx
        WHERE kind = ${kind} AND status = 'pending' AND attempts = 0 AND next_attempt_at <= ${nowDate} ${sending}
        ORDER BY next_attempt_at LIMIT ${limitOf(room)})
      UNION ALL
      SELECT id, throttle_key, next_attempt_at, 1 FROM (
        SELECT id, throttle_key, next_attempt_at FROM outbox INDEXED BY outbox_retries_idx
        WHERE kind = ${kind} AND status = 'pending' AND attempts > 0 AND next_attempt_at <= ${nowDate}
          AND (lease_expires_at IS NULL OR lease_expires_at <= ${nowDate}) AND handed_over_at IS NULL ${sending}
        ORDER BY next_attempt_at LIMIT ${limitOf(retryRoom)})
    ),
    numbered AS (
      SELECT id, throttle_key,
        row_number() OVER (ORDER BY retry, next_attempt_at, id) AS nth,
        row_number() OVER (PARTITION BY throttle_key ORDER BY retry, next_attempt_at, id) AS nth_of_key
      FROM due
    ),
    key_used AS (
      SELECT throttle_key, sum(sent) AS used, min(minute) AS oldest FROM outbox_sent_minutes
      WHERE kind IN (${Prisma.join(capKinds)}) AND throttle_key IN (SELECT throttle_key FROM due) AND minute >= ${fromMinute} AND sent > 0
      GROUP BY throttle_key
    ),
    decided AS MATERIALIZED (
      SELECT id, over_key_cap, NOT over_key_cap AND nth <= min(${room}, ${kindLeft}) AS claim, free_from FROM (
        SELECT numbered.id, nth, numbered.throttle_key IS NOT NULL AND nth_of_key > ${keyLeft} AS over_key_cap,
          coalesce(key_used.oldest, ${minute}) + ${CAP_WINDOW_MINUTES} AS free_from
        FROM numbered LEFT JOIN key_used ON key_used.throttle_key = numbered.throttle_key)
    )
    UPDATE outbox SET
      lease_owner = CASE WHEN decided.claim THEN ${owner} ELSE lease_owner END,
      lease_expires_at = CASE WHEN decided.claim THEN ${leaseUntil} ELSE lease_expires_at END,
      claimed_minute = CASE WHEN decided.claim THEN ${minute} ELSE NULL END,
      attempts = CASE WHEN decided.claim THEN attempts + 1 ELSE attempts END,
      next_attempt_at = CASE WHEN decided.claim THEN next_attempt_at
        ELSE strftime('%Y-%m-%dT%H:%M:%f+00:00', decided.free_from * 60, 'unixepoch') END
    FROM decided
    WHERE outbox.id = decided.id AND (decided.claim OR decided.over_key_cap)
    RETURNING outbox.id, outbox.kind, outbox.entry_id, outbox.attempts, outbox.event, outbox.claimed_minute,
      -- An update's row carries only its update's id: its subject and text come from the update.
      CASE WHEN outbox.update_id IS NULL THEN outbox.payload
        ELSE (SELECT json_object('subject', subject, 'body', body) FROM mail_updates WHERE id = outbox.update_id) END AS payload`;
}
