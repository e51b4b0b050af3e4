/**
 * Storing sign-ups through Prisma Client, committed in groups
 * (lib/group-commit.ts): one INSERT per batch, whatever its size, and in the
 * same transaction the outbox rows for what is owed about each new entry
 * (lib/outbox/worker.ts), so a stored sign-up always has its notifications.
 *
 * Whether an email is already on the list, and whether a security-question
 * token was already used, are decided by the unique indexes inside that insert,
 * never by a read before the write, so simultaneous requests (in one process or
 * several) cannot both get in. A row that collides is skipped and the rest of
 * the batch goes in; the one statement's RETURNING also tells which collided
 * with an email on the list, so a duplicate costs no second query.
 */
import "server-only";
import { createHmac, randomUUID } from "node:crypto";
import { BUSY_TIMEOUT_MS, getDatabase, isTemporary, runTask, temporaryKind, whileBusy, type Database, type DatabaseTask } from "../db";
import { errorOf } from "../db/tasks";
import { limitKeyOf, type SharedRateLimiter } from "../security/rate-limit";
import { decisionFor, windowsByKey, type Attempt, type RateLimitDecision } from "../security/rate-limit-count";
import type { WaitlistEntry } from "../generated/prisma/client";
import { GroupCommit, type Outcome } from "../group-commit";
import { errorFields, log } from "../log";
import type { DeliveryKind } from "../outbox/worker";
import { PRIVACY_NOTICE_VERSION } from "../content/privacy";
import { domainOf } from "./email-domains";
import { signupOf } from "./fields";
import { normalizeEmail, type WaitlistSignup } from "./schema";
import { insertSignupBatch, SIGNUP_COLUMNS, writeSignupAttempts, type AttemptsWritten, type ReturnedRow, type SignupAttempts, type SignupBatch } from "./signup-writes";

/** A stored sign-up as operators and the webhook see it: every field of the sign-up, its id and when it came. */
export type EntryRecord = { id: number; created_at: string } & WaitlistSignup;

/** "challenge_used": the security-question token already admitted another sign-up. */
export type StoreResult =
  | { outcome: "created"; entry: EntryRecord }
  | { outcome: "duplicate" }
  | { outcome: "challenge_used" };

/** ISO 8601 in UTC, the form the Prisma adapter writes DateTime in (docs/operations.md), so text comparison sorts by time. */
export function timestamp(date: Date = new Date()): string {
  return date.toISOString().replace("Z", "+00:00");
}

/** One row as it goes into waitlist_entries: keys are the column names (SIGNUP_COLUMNS). */
type Row = WaitlistSignup & {
  email_normalized: string;
  challenge_id: string | null;
  created_at: Date;
  public_id: string;
  /** The privacy notice the visitor joined under (lib/content/privacy.ts). */
  notice_version: string;
};

function rowOf(signup: WaitlistSignup, challengeId: string | null, createdAt: Date): Row {
  return {
    ...signup,
    email_normalized: normalizeEmail(signup.email),
    created_at: createdAt,
    challenge_id: challengeId,
    public_id: randomUUID(),
    notice_version: PRIVACY_NOTICE_VERSION,
  };
}

function recordOf(row: Row, id: number): EntryRecord {
  const { email_normalized: _normalized, challenge_id: _challenge, public_id: _public, notice_version: _notice, created_at, ...signup } = row;
  return { id, created_at: timestamp(created_at), ...signup };
}

/** The public record of an entry read through Prisma Client. */
export function entryRecord(entry: WaitlistEntry): EntryRecord {
  return { id: entry.id, created_at: timestamp(entry.createdAt), ...signupOf(entry) };
}

/** A row's values in SIGNUP_COLUMNS order, created_at in the stored text form. */
function rowValues(row: Row): unknown[] {
  return SIGNUP_COLUMNS.map((column) => (column === "created_at" ? timestamp(row.created_at) : row[column]));
}

type Pending = {
  /** The row to store, when the attempt passed every check; null: only the attempt is counted. */
  signup: WaitlistSignup | null;
  /** The client's attempt, counted against its limit in the same trip; null: not counted (addToWaitlist). */
  attempt: Attempt | null;
  challengeId: string | null;
  deliveries: readonly DeliveryKind[];
  /** With an "email" delivery: the address's key in confirmation_recipients. */
  recipientKey: string | null;
};

/** What a sign-up's trip to the database decided: whether its client was within the limit, and what became of its row (null: none was tried). */
export type AttemptResult = { decision: RateLimitDecision; stored: StoreResult | null };

const ALLOWED: RateLimitDecision = { allowed: true };

/** The batch's statements, run in the database thread where there is one (lib/db/tasks.ts). */
const WRITE_ATTEMPTS: DatabaseTask<SignupAttempts, AttemptsWritten> = { module: "lib/waitlist/signup-writes.ts", name: "writeSignupAttempts", run: writeSignupAttempts };
const INSERT_BATCH: DatabaseTask<SignupBatch, ReturnedRow[]> = { module: "lib/waitlist/signup-writes.ts", name: "insertSignupBatch", run: insertSignupBatch };
/** Every task the store runs (a test loads each from its module, as the thread does). */
export const STORE_TASKS = [WRITE_ATTEMPTS, INSERT_BATCH] as const;

/**
 * What is owed for each new entry: [outbox id, kind, the entry's public id, the
 * recipient key or null, the throttle key or null]. An email's throttle key is
 * its canonical address's domain, so MAIL_MAX_PER_DOMAIN_PER_HOUR counts every
 * spelling of one domain together (lib/outbox/worker.ts).
 */
function owedFor(rows: Row[], items: Pending[]): unknown[][] {
  return rows.flatMap((row, i) =>
    items[i]!.deliveries.map((kind) =>
      kind === "email" ? [randomUUID(), kind, row.public_id, items[i]!.recipientKey, domainOf(row.email_normalized)] : [randomUUID(), kind, row.public_id, null, null],
    ),
  );
}

/** The rows alone (no attempts counted): what is new, and the listed rows duplicates collided with (signup-writes.ts). */
function insertRows(database: Database, rows: Row[], items: Pending[]): Promise<ReturnedRow[]> {
  const owed = owedFor(rows, items);
  return runTask(database, INSERT_BATCH, {
    rows: JSON.stringify(rows.map(rowValues)),
    owed: owed.length === 0 ? null : JSON.stringify(owed),
    now: timestamp(rows[0]!.created_at),
  });
}

/**
 * One batch, one trip to the database (signup-writes.ts): every attempt counted
 * against its client's limit, then the rows whose attempt is within it inserted
 * by one statement (and so one transaction and one sync). A row whose mailbox
 * is on the list (or earlier in the batch) meets `ON CONFLICT (email_normalized)
 * WHERE duplicate_of IS NULL DO UPDATE`, which sets the key to itself: nothing
 * changes, but RETURNING names the row it collided with. Any other collision (a
 * used token) meets `DO NOTHING` and names nothing. So in RETURNING, in no
 * promised order: our new rows, known by the public_id each was given, and the
 * listed rows duplicates collided with, known by their key. SQLite checks the
 * index an ON CONFLICT names before the others, so a used token with a listed
 * email is a duplicate.
 */
async function writeBatch(database: Database, limiter: SharedRateLimiter | null, batch: Pending[]): Promise<Outcome<AttemptResult>[]> {
  const createdAt = new Date();
  const { counts, places } = limiter ? limiter.countsOf(batch.map((item) => item.attempt!)) : { counts: null, places: [] };
  const withRow = batch.flatMap((item, i) => (item.signup ? [i] : []));
  const rows = withRow.map((i) => rowOf(batch[i]!.signup!, batch[i]!.challengeId, createdAt));
  const started = Date.now();
  // A count that met a lock before the busy timeout ran out (libSQL's embedded engine does not
  // wait at all) is tried again within it; nothing of a failed count was written (lib/db whileBusy).
  const written = await whileBusy(() =>
    runTask(database, WRITE_ATTEMPTS, {
      count: limiter && counts ? { counts, max: limiter.max } : null,
      rows: rows.map(rowValues),
      places: withRow.map((i) => places[i] ?? null),
      owed: owedFor(rows, withRow.map((i) => batch[i]!)),
      now: timestamp(createdAt),
    }),
  );
  if (limiter) limiter.afterBatch(batch.map((item) => item.attempt!));
  const windows = windowsByKey(written.counted);
  // written.tried counts in rows; withRow turns a row's index back into its item's.
  const triedRows = written.tried.map((j) => rows[j]!);
  const triedItems = written.tried.map((j) => batch[withRow[j]!]!);
  const storedOutcomes = await rowOutcomes(database, triedRows, triedItems, written.inserted, started, createdAt);
  const storedByItem = new Map(written.tried.map((j, k) => [withRow[j]!, storedOutcomes[k]!]));
  return batch.map((item, i) => {
    const decision = limiter ? decisionFor(places[i]!, windows, limiter.max) : ALLOWED;
    const stored = storedByItem.get(i);
    if (!stored) return { ok: { decision, stored: null } };
    return "ok" in stored ? { ok: { decision, stored: stored.ok } } : stored;
  });
}

/**
 * What became of each row tried: from what the insert returned, or, when it
 * failed, after the insert is tried again (a lock met with time left in the
 * busy window) or row by row (a refusal other than a unique index: a trigger, a
 * CHECK, so only the bad row fails). A row that could not be written fails alone
 * with the error; the rest of the batch (attempts, refused rows) keeps its answers.
 */
async function rowOutcomes(database: Database, rows: Row[], items: Pending[], inserted: AttemptsWritten["inserted"], started: number, createdAt: Date): Promise<Outcome<StoreResult>[]> {
  if (rows.length === 0) return [];
  let returned: ReturnedRow[];
  if (Array.isArray(inserted)) returned = inserted;
  else {
    const error = errorOf(inserted);
    if (isTemporary(error)) {
      // Nothing of the rows was written. A lock met early is waited out within what is left of the
      // busy window; past it, writing the rows again would only make each caller wait longer.
      const left = BUSY_TIMEOUT_MS - (Date.now() - started);
      if (temporaryKind(error) !== "database_busy" || left <= BUSY_TIMEOUT_MS / 2) return rows.map(() => ({ error }));
      try {
        returned = await whileBusy(() => insertRows(database, rows, items), left);
      } catch (retryError) {
        return rows.map(() => ({ error: retryError }));
      }
    } else {
      if (rows.length === 1) return [{ error }];
      const outcomes: Outcome<StoreResult>[] = [];
      for (const [i, row] of rows.entries()) {
        try {
          outcomes.push(...classify([row], await insertRows(database, [row], [items[i]!])));
        } catch (rowError) {
          outcomes.push({ error: rowError });
        }
      }
      await spendDuplicatesChallenges(database, rows, outcomes, createdAt);
      return outcomes;
    }
  }
  const outcomes = classify(rows, returned);
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
    log.warn({ fault: isTemporary(error) ? "database_unavailable" : "unexpected", ...errorFields(error), tokens: spent.length }, "a duplicate's question could not be used up");
  }
}

function classify(rows: Row[], returned: ReturnedRow[]): Outcome<StoreResult>[] {
  const idByPublicId = new Map(returned.map((row) => [row.public_id, Number(row.id)]));
  const onTheList = new Set(returned.map((row) => row.email_normalized));
  return rows.map((row) => {
    const id = idByPublicId.get(row.public_id);
    if (id !== undefined) return { ok: { outcome: "created", entry: recordOf(row, id) } };
    return { ok: { outcome: onTheList.has(row.email_normalized) ? "duplicate" : "challenge_used" } };
  });
}

/** One writer per database and limiter (none for addToWaitlist): every sign-up of the process goes through it. */
const writers = new WeakMap<Database, Map<SharedRateLimiter | null, GroupCommit<Pending, AttemptResult>>>();

function writerFor(database: Database, limiter: SharedRateLimiter | null, maxPending?: number): GroupCommit<Pending, AttemptResult> {
  let byLimiter = writers.get(database);
  if (!byLimiter) writers.set(database, (byLimiter = new Map()));
  let writer = byLimiter.get(limiter);
  if (!writer) {
    writer = new GroupCommit((batch) => writeBatch(database, limiter, batch), { maxPending });
    byLimiter.set(limiter, writer);
  }
  return writer;
}

export type AddOptions = {
  /** The security-question token's id: unique, so a token admits one sign-up. */
  challengeId?: string | null;
  /** What is owed about the new entry: an outbox row of each kind, written with it. */
  deliveries?: readonly DeliveryKind[];
  /** Required with an "email" delivery: recipientKey() of the address. */
  recipientKey?: string | null;
  database?: Database;
  /** When the wait for a batch ends (the request's deadline, ms since 1970): rejected with NotWritten, nothing stored. */
  deadline?: number;
  /** Sign-ups that may wait for the next batch (WAITLIST_MAX_PENDING_WRITES); more are refused with NotWritten. */
  maxPending?: number;
};

function pending(signup: WaitlistSignup | null, attempt: Attempt | null, options: AddOptions): Pending {
  const { challengeId = null, deliveries = [], recipientKey = null } = options;
  if (signup && deliveries.includes("email") && !recipientKey) throw new Error("an email delivery needs the address's recipientKey");
  return { signup, attempt, challengeId, deliveries, recipientKey };
}

/** Adds a sign-up, committed together with the others arriving at the same moment (no attempt counted). */
export async function addToWaitlist(signup: WaitlistSignup, options: AddOptions = {}): Promise<StoreResult> {
  const { database = getDatabase(), deadline, maxPending } = options;
  const { stored } = await writerFor(database, null, maxPending).submit(pending(signup, null, options), deadline);
  return stored!;
}

/**
 * A sign-up attempt's one trip to the database: the client's attempt counted
 * against `limiter`, and `signup` (when the attempt passed every check) stored
 * only if the attempt is within the limit, both with the others arriving at the
 * same moment. Every attempt counts, whatever becomes of it.
 */
export function attemptSignup(signup: WaitlistSignup | null, attempt: { limiter: SharedRateLimiter; client: string; now: number }, options: AddOptions = {}): Promise<AttemptResult> {
  const { database = getDatabase(), deadline, maxPending } = options;
  const item = pending(signup, { key: limitKeyOf(attempt.client), now: attempt.now }, options);
  return writerFor(database, attempt.limiter, maxPending).submit(item, deadline);
}

/**
 * How confirmation_recipients knows an address without keeping it: HMAC-SHA256
 * of the normalised address with the site's secret. It survives the entry's
 * removal, and cannot be turned back into the address without the secret.
 */
export function recipientKey(secret: string, email: string): string {
  return createHmac("sha256", secret).update(`confirmation-recipient:${normalizeEmail(email)}`).digest("hex");
}

/** Resolves once every sign-up submitted so far is committed (graceful shutdown). */
export async function drainSignups(database: Database = getDatabase()): Promise<void> {
  await Promise.all([...(writers.get(database)?.values() ?? [])].map((writer) => writer.drain()));
}
