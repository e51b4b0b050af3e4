/**
 * Storing sign-ups through Prisma Client, committed in groups
 * (lib/group-commit.ts): one INSERT per batch, whatever its size. What a new
 * entry is owed (the webhook, the confirmation email) is written behind it by
 * the delivery worker (./signup-deliveries.ts), so the insert stays one
 * statement with deliveries on.
 *
 * Whether an email is already on the list, and whether a security-question
 * token was already used, are decided by the unique indexes inside that insert,
 * never by a read before the write, so simultaneous requests (in one process or
 * several) cannot both get in. A row that collides is skipped and the rest of
 * the batch goes in; the one statement's RETURNING also tells which collided
 * with an email on the list, so a duplicate costs no second query.
 */
import "server-only";
import { getDatabase, isTemporary, Prisma, whileBusy, type Database } from "../db";
import { timestamp } from "../time";
import { GroupCommit, type Outcome } from "../group-commit";
import { orderedUuid } from "../ordered-id";
import { errorFields, log } from "../log";
import { PRIVACY_NOTICE_VERSION } from "../content/privacy";
import { SIGNUP_FIELD_NAMES, type EntryRecord } from "./fields";
import { normalizeEmail, type WaitlistSignup } from "./schema";

/** "challenge_used": the security-question token already admitted another sign-up. */
export type StoreResult = { outcome: "created"; entry: EntryRecord } | { outcome: "duplicate" } | { outcome: "challenge_used" };

/** One row as it goes into waitlist_entries: keys are the column names. */
type Row = WaitlistSignup & {
  email_normalized: string;
  challenge_id: string | null;
  created_at: Date;
  public_id: string;
  /** The privacy notice the visitor joined under (lib/content/privacy.ts). */
  notice_version: string;
};

/** The columns the insert writes: every field of a sign-up (lib/waitlist/fields.ts), then the store's own. */
const COLUMNS = [
  ...SIGNUP_FIELD_NAMES,
  "email_normalized",
  "created_at",
  "challenge_id",
  "public_id",
  "notice_version",
] as const satisfies readonly (keyof Row)[];

function rowOf(signup: WaitlistSignup, challengeId: string | null, createdAt: Date): Row {
  return {
    ...signup,
    email_normalized: normalizeEmail(signup.email),
    created_at: createdAt,
    challenge_id: challengeId,
    public_id: orderedUuid(),
    notice_version: PRIVACY_NOTICE_VERSION,
  };
}

function recordOf(row: Row, id: number): EntryRecord {
  const {
    email_normalized: _normalized,
    challenge_id: _challenge,
    public_id: _public,
    notice_version: _notice,
    created_at,
    ...signup
  } = row;
  return { id, created_at: timestamp(created_at), ...signup };
}

/** A row RETURNING names: one this statement inserted (its public_id is one of ours), or one already on the list that an email collided with. */
type Returned = { id: bigint | number; email_normalized: string; public_id: string | null };

/**
 * The batch as one JSON parameter for SQLite's json_each: each row an array of
 * its values in COLUMNS order (reading by position is quicker for SQLite than
 * by name), created_at in the stored text form.
 */
function batchJson(rows: Row[]): string {
  return JSON.stringify(rows.map((row) => COLUMNS.map((column) => (column === "created_at" ? timestamp(row.created_at) : row[column]))));
}

const SELECT_FROM_BATCH = Prisma.raw(COLUMNS.map((_, i) => `value ->> ${i}`).join(", "));
const CHALLENGE_ID_OF_ROW = Prisma.raw(`value ->> ${COLUMNS.indexOf("challenge_id")}`);

type Pending = { signup: WaitlistSignup; challengeId: string | null };

/**
 * The rows that are new, with their ids; rows that collide with a unique index
 * are skipped. The whole batch is one statement with one parameter: Prisma
 * Client's cost grows with the number of parameters it passes, SQLite's JSON
 * functions unpack them for a fraction of that (docs/performance.md). What a new
 * entry is owed (a webhook, an email) is written behind it (./signup-deliveries.ts).
 */
function insertRows(database: Database, rows: Row[]): Promise<Returned[]> {
  // A token a duplicate used up (spent_challenges) admits nothing more. The WHERE also tells
  // SQLite's parser that ON CONFLICT belongs to the INSERT, not to a join.
  return database.$queryRaw<Returned[]>`
    INSERT INTO waitlist_entries (${Prisma.raw(COLUMNS.join(", "))})
    SELECT ${SELECT_FROM_BATCH} FROM json_each(${batchJson(rows)})
    WHERE NOT EXISTS (SELECT 1 FROM spent_challenges WHERE challenge_id = ${CHALLENGE_ID_OF_ROW})
    ON CONFLICT (email_normalized) WHERE duplicate_of IS NULL DO UPDATE SET email_normalized = excluded.email_normalized
    ON CONFLICT DO NOTHING
    RETURNING id, email_normalized, public_id`;
}

/**
 * One batch, one statement (and so one transaction and one sync). A row whose
 * mailbox is on the list (or earlier in the batch) meets `ON CONFLICT
 * (email_normalized) WHERE duplicate_of IS NULL DO UPDATE`, which sets the key
 * to itself: nothing changes, but RETURNING names the row it collided with. Any
 * other collision (a used token) meets `DO NOTHING` and names nothing. So in
 * RETURNING, in no promised order: our new rows, known by the public_id each was
 * given, and the listed rows duplicates collided with, known by their key.
 * SQLite checks the index an ON CONFLICT names before the others, so a used
 * token with a listed email is a duplicate.
 */
async function writeBatch(database: Database, batch: Pending[]): Promise<Outcome<StoreResult>[]> {
  const createdAt = new Date();
  const rows = batch.map(({ signup, challengeId }) => rowOf(signup, challengeId, createdAt));
  let inserted: Returned[];
  try {
    // A lock met before the busy timeout ran out (libSQL's embedded engine does not wait at all)
    // is tried again within it; nothing of a failed attempt was written (lib/db whileBusy).
    inserted = await whileBusy(database, (db) => insertRows(db, rows));
  } catch (error) {
    // The database cannot take writes now (locked past the busy timeout, full, unreachable): nothing
    // was written, and writing the rows one by one would only make each caller wait that much longer.
    if (isTemporary(error)) throw error;
    // Refused for another reason than a unique index (a trigger, a CHECK): the statement
    // failed as a whole. Write each row on its own so only the bad one fails.
    if (rows.length === 1) return [{ error }];
    const outcomes: Outcome<StoreResult>[] = [];
    for (const row of rows) {
      try {
        outcomes.push(...classify([row], await insertRows(database, [row])));
      } catch (rowError) {
        outcomes.push({ error: rowError });
      }
    }
    await spendDuplicatesChallenges(database, rows, outcomes, createdAt);
    return outcomes;
  }
  const outcomes = classify(rows, inserted);
  await spendDuplicatesChallenges(database, rows, outcomes, createdAt);
  return outcomes;
}

/**
 * A sign-up refused as already registered uses up its question like one that
 * got in, so a solved question cannot test address after address for
 * membership. Written after the batch's insert, before anyone is answered, and
 * only when the batch met a duplicate, so sign-ups pay nothing for it. Batches
 * of one process are written one after another, so its next batch already sees
 * the token spent; another instance may slip one use in between (at most one).
 * If the write fails, the duplicate is still answered as one, and logged.
 */
async function spendDuplicatesChallenges(database: Database, rows: Row[], outcomes: Outcome<StoreResult>[], now: Date): Promise<void> {
  const spent = rows
    .filter((row, i) => row.challenge_id !== null && "ok" in outcomes[i]! && outcomes[i].ok.outcome === "duplicate")
    .map((row) => row.challenge_id);
  if (spent.length === 0) return;
  try {
    await database.$executeRaw`
      INSERT INTO spent_challenges (challenge_id, spent_at)
      SELECT value, ${timestamp(now)} FROM json_each(${JSON.stringify(spent)}) WHERE true
      ON CONFLICT DO NOTHING`;
  } catch (error) {
    log.warn(
      { fault: isTemporary(error) ? "database_unavailable" : "unexpected", ...errorFields(error), tokens: spent.length },
      "a duplicate's question could not be used up",
    );
  }
}

function classify(rows: Row[], returned: Returned[]): Outcome<StoreResult>[] {
  const idByPublicId = new Map(returned.map((row) => [row.public_id, Number(row.id)]));
  const onTheList = new Set(returned.map((row) => row.email_normalized));
  return rows.map((row) => {
    const id = idByPublicId.get(row.public_id);
    if (id !== undefined) return { ok: { outcome: "created", entry: recordOf(row, id) } };
    return { ok: { outcome: onTheList.has(row.email_normalized) ? "duplicate" : "challenge_used" } };
  });
}

const writers = new WeakMap<Database, GroupCommit<Pending, StoreResult>>();

function writerFor(database: Database, maxPending?: number): GroupCommit<Pending, StoreResult> {
  let writer = writers.get(database);
  if (!writer) {
    writer = new GroupCommit((batch) => writeBatch(database, batch), { maxPending });
    writers.set(database, writer);
  }
  return writer;
}

type AddOptions = {
  /** The security-question token's id: unique, so a token admits one sign-up. */
  challengeId?: string | null;
  database?: Database;
  /** When the wait for a batch ends (the request's deadline, ms since 1970): rejected with NotWritten, nothing stored. */
  deadline?: number;
  /** Sign-ups that may wait for the next batch (WAITLIST_MAX_PENDING_WRITES); more are refused with NotWritten. */
  maxPending?: number;
};

/** Adds a sign-up, committed together with the others arriving at the same moment. */
export function addToWaitlist(signup: WaitlistSignup, options: AddOptions = {}): Promise<StoreResult> {
  const { challengeId = null, database = getDatabase(), deadline, maxPending } = options;
  return writerFor(database, maxPending).submit({ signup, challengeId }, deadline);
}
