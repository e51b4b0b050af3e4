/**
 * The sign-up batch's statements, as database tasks (lib/db/tasks.ts): on the
 * embedded file they run in the database thread, on its own Prisma Client, so
 * the main thread sends one message per batch (store.ts decides what goes in,
 * and what each returned row means). Loaded there from source: it imports only
 * the generated client, the field list and the rate limit's count.
 */
import "server-only";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import { taskFailure, type TaskFailure } from "../db/tasks";
import { countAttempts, decisionFor, windowsByKey, type AttemptCounts, type AttemptPlace, type CountedWindow } from "../security/rate-limit-count";
import { SIGNUP_FIELD_NAMES } from "./fields";

/** The columns the insert writes, in the order of each row's values: every field of a sign-up (fields.ts), then the store's own. */
export const SIGNUP_COLUMNS = [...SIGNUP_FIELD_NAMES, "email_normalized", "created_at", "challenge_id", "public_id", "notice_version"] as const;

export type SignupColumn = (typeof SIGNUP_COLUMNS)[number];

/** A row RETURNING names: one this statement inserted (its public_id is one of ours), or one already on the list that an email collided with. */
export type ReturnedRow = { id: bigint | number; email_normalized: string; public_id: string | null };

export type SignupBatch = {
  /** The rows as JSON: each an array of its values in SIGNUP_COLUMNS order (reading by position is quicker for SQLite). */
  rows: string;
  /** What is owed for the new entries, as JSON: [outbox id, kind, the entry's public id, recipient key or null, throttle key or null]; null when nothing is. */
  owed: string | null;
  /** The batch's time in the stored text form, for the outbox rows. */
  now: string;
};

const SELECT_FROM_BATCH = Prisma.raw(SIGNUP_COLUMNS.map((_, i) => `value ->> ${i}`).join(", "));
const CHALLENGE_ID_OF_ROW = Prisma.raw(`value ->> ${SIGNUP_COLUMNS.indexOf("challenge_id")}`);

/**
 * The rows that are new, with their ids; rows that collide with a unique index
 * are skipped. The whole batch is one statement with one parameter: Prisma
 * Client's cost grows with the number of parameters it passes, SQLite's JSON
 * functions unpack them for a fraction of that (docs/performance.md).
 *
 * A row whose mailbox is on the list (or earlier in the batch) meets `ON
 * CONFLICT (email_normalized) WHERE duplicate_of IS NULL DO UPDATE`, which sets
 * the key to itself: nothing changes, but RETURNING names the row it collided
 * with. Any other collision (a used token) meets `DO NOTHING` and names
 * nothing. A token a duplicate used up (spent_challenges) admits nothing more.
 *
 * With deliveries owed, more statements in the same transaction write an outbox
 * row of each kind for each new entry. They find the entries by the random
 * public_id each row was given, which only a row inserted by this statement can
 * carry: a skipped duplicate gets nothing. A confirmation email is owed only to
 * an address never mailed before (confirmation_recipients), which is then
 * recorded, so the form cannot be used to mail anyone twice.
 */
export async function insertSignupBatch(database: PrismaClient, { rows, owed, now }: SignupBatch): Promise<ReturnedRow[]> {
  // The WHERE also tells SQLite's parser that ON CONFLICT belongs to the INSERT, not to a join.
  const insert = database.$queryRaw<ReturnedRow[]>`
    INSERT INTO waitlist_entries (${Prisma.raw(SIGNUP_COLUMNS.join(", "))})
    SELECT ${SELECT_FROM_BATCH} FROM json_each(${rows})
    WHERE NOT EXISTS (SELECT 1 FROM spent_challenges WHERE challenge_id = ${CHALLENGE_ID_OF_ROW})
    ON CONFLICT (email_normalized) WHERE duplicate_of IS NULL DO UPDATE SET email_normalized = excluded.email_normalized
    ON CONFLICT DO NOTHING
    RETURNING id, email_normalized, public_id`;
  if (owed === null) return insert;
  const [inserted] = await database.$transaction([
    insert,
    database.$executeRaw`
      INSERT INTO outbox (id, kind, entry_id, status, attempts, next_attempt_at, created_at, throttle_key)
      SELECT owed.value ->> 0, owed.value ->> 1, entry.id, 'pending', 0, ${now}, ${now}, owed.value ->> 4
      FROM json_each(${owed}) AS owed
      JOIN waitlist_entries AS entry ON entry.public_id = owed.value ->> 2
      WHERE owed.value ->> 1 != 'email'
        OR NOT EXISTS (SELECT 1 FROM confirmation_recipients WHERE address_hash = owed.value ->> 3)`,
    database.$executeRaw`
      INSERT INTO confirmation_recipients (address_hash, created_at)
      SELECT owed.value ->> 3, ${now}
      FROM json_each(${owed}) AS owed
      JOIN waitlist_entries AS entry ON entry.public_id = owed.value ->> 2
      WHERE owed.value ->> 1 = 'email'
      ON CONFLICT DO NOTHING`,
  ]);
  return inserted;
}

/** Where each value of a row is (SIGNUP_COLUMNS). */
const PUBLIC_ID = SIGNUP_COLUMNS.indexOf("public_id");

export type SignupAttempts = {
  /** The batch's attempts as the count takes them (rate-limit-count.ts) and the limit; null when it counts none. */
  count: { counts: AttemptCounts; max: number } | null;
  /** The rows of the attempts that passed every check, each an array of its values in SIGNUP_COLUMNS order. */
  rows: unknown[][];
  /** Each row's attempt (null: not counted): a row is inserted only if its attempt is within the limit. */
  places: (AttemptPlace | null)[];
  /** What is owed for the rows, as in SignupBatch (each names its row's public_id). */
  owed: unknown[][];
  now: string;
};

export type AttemptsWritten = {
  /** Each key's count after the batch (empty when none was counted). */
  counted: CountedWindow[];
  /** The rows tried (their attempts within the limit), by index in `rows`. */
  tried: number[];
  /** What the insert returned, or why it failed: the counts stand either way. */
  inserted: ReturnedRow[] | TaskFailure;
};

/**
 * A sign-up's one trip to the database: the batch's attempts counted against
 * their clients' limits, then the rows whose attempt is within the limit
 * inserted. Two statements, one round trip from the main thread. A count that
 * fails throws (nothing was written); an insert that fails is returned beside
 * the counts, which were committed.
 */
export async function writeSignupAttempts(database: PrismaClient, input: SignupAttempts): Promise<AttemptsWritten> {
  const counted = input.count ? await countAttempts(database, input.count.counts) : [];
  const windows = windowsByKey(counted);
  const tried = input.rows.flatMap((_, i) => {
    const place = input.places[i];
    return !place || !input.count || decisionFor(place, windows, input.count.max).allowed ? [i] : [];
  });
  if (tried.length === 0) return { counted, tried, inserted: [] };
  const publicIds = new Set(tried.map((i) => input.rows[i]![PUBLIC_ID]));
  const owed = input.owed.filter((item) => publicIds.has(item[2]));
  try {
    const rows = JSON.stringify(tried.map((i) => input.rows[i]));
    return { counted, tried, inserted: await insertSignupBatch(database, { rows, owed: owed.length === 0 ? null : JSON.stringify(owed), now: input.now }) };
  } catch (error) {
    return { counted, tried, inserted: taskFailure(error) };
  }
}
