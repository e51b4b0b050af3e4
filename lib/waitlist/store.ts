import type { Db } from "../db";
import { getDb } from "../db";
import { normalizeEmail, type SignupSource, type WaitlistSignup } from "./schema";

/** A stored sign-up as operators and the webhook see it (the table minus internal columns). */
export type WaitlistEntry = WaitlistSignup &
  SignupSource & {
    id: number;
    created_at: string;
  };

/** "challenge_used": the security-question token already admitted another sign-up. */
export type StoreResult =
  | { outcome: "created"; entry: WaitlistEntry }
  | { outcome: "duplicate" }
  | { outcome: "challenge_used" };

const INSERT_ENTRY = `
  INSERT INTO waitlist_entries
    (company_name, contact_name, email, email_normalized, phone, business_type, company_size, notes,
     created_at, challenge_id, source_page, utm_source, utm_medium, utm_campaign)
  VALUES
    (@company_name, @contact_name, @email, @email_normalized, @phone, @business_type, @company_size, @notes,
     @created_at, @challenge_id, @source_page, @utm_source, @utm_medium, @utm_campaign)`;

// One prepared statement per connection, compiled on first use.
const insertStatements = new WeakMap<Db, ReturnType<Db["prepare"]>>();

function insertStatementFor(db: Db) {
  let statement = insertStatements.get(db);
  if (!statement) {
    statement = db.prepare(INSERT_ENTRY);
    insertStatements.set(db, statement);
  }
  return statement;
}

function isUniqueViolation(error: unknown): error is Error & { code: string } {
  return error instanceof Error && (error as { code?: unknown }).code === "SQLITE_CONSTRAINT_UNIQUE";
}

/** ISO 8601 in UTC, in the form the Prisma adapter wrote before (docs/operations.md), so text comparison sorts by time. */
export function timestamp(date: Date = new Date()): string {
  return date.toISOString().replace("Z", "+00:00");
}

type NewSignup = WaitlistSignup & Partial<SignupSource>;

/**
 * Inserts a sign-up. Whether the email is already on the list, and whether the
 * security-question token was already used, are both decided by unique indexes
 * inside the one insert, never by a read before the write, so two simultaneous
 * requests cannot both get in.
 */
export function addToWaitlist(signup: NewSignup, challengeId: string | null = null, db: Db = getDb()): StoreResult {
  return insertEntry(db, signup, challengeId);
}

function insertEntry(db: Db, signup: NewSignup, challengeId: string | null): StoreResult {
  const fields = {
    ...signup,
    source_page: signup.source_page ?? null,
    utm_source: signup.utm_source ?? null,
    utm_medium: signup.utm_medium ?? null,
    utm_campaign: signup.utm_campaign ?? null,
    created_at: timestamp(),
  };
  try {
    const { lastInsertRowid } = insertStatementFor(db).run({
      ...fields,
      email_normalized: normalizeEmail(signup.email),
      challenge_id: challengeId,
    });
    return { outcome: "created", entry: { ...fields, id: Number(lastInsertRowid) } };
  } catch (error) {
    // SQLite names the index's column: "UNIQUE constraint failed: waitlist_entries.challenge_id".
    if (isUniqueViolation(error)) {
      return { outcome: error.message.includes(".challenge_id") ? "challenge_used" : "duplicate" };
    }
    throw error;
  }
}

type Pending = { signup: NewSignup; challengeId: string | null; resolve: (result: StoreResult) => void; reject: (error: unknown) => void };

/**
 * Group commit for the site's sign-ups. Every commit is synced to disk
 * (synchronous=FULL, lib/sqlite.ts), and that sync is most of what an insert
 * costs and blocks the server while it runs. Sign-ups that arrive during one
 * turn of the event loop are written in one transaction with one sync, and
 * each request is answered only after that commit, so nothing is acknowledged
 * before it is on disk. A sign-up that fails on its own (a duplicate, a
 * trigger) fails alone: SQLite undoes just that statement.
 */
class GroupCommitWriter {
  private pending: Pending[] = [];
  /** One transaction: each row's result, or its error (a failed row does not undo the others). */
  private readonly writeBatch: (batch: Pending[]) => ({ ok: StoreResult } | { error: unknown })[];

  constructor(db: Db) {
    this.writeBatch = db.transaction((batch: Pending[]) =>
      batch.map((item) => {
        try {
          return { ok: insertEntry(db, item.signup, item.challengeId) };
        } catch (error) {
          return { error };
        }
      }),
    );
  }

  add(signup: NewSignup, challengeId: string | null): Promise<StoreResult> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ signup, challengeId, resolve, reject });
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    let outcomes: ReturnType<typeof this.writeBatch>;
    try {
      outcomes = this.writeBatch(batch);
    } catch (error) {
      // The commit itself failed (disk full, I/O error): nothing in the batch was stored.
      for (const item of batch) item.reject(error);
      return;
    }
    // Answered only now, after the commit: an acknowledged sign-up is on disk.
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if ("ok" in outcome) item.resolve(outcome.ok);
      else item.reject(outcome.error);
    });
  }
}

const writers = new WeakMap<Db, GroupCommitWriter>();

/** addToWaitlist for the running site: the same insert, committed together with others arriving at the same moment. */
export function addToWaitlistSoon(signup: NewSignup, challengeId: string | null = null, db: Db = getDb()): Promise<StoreResult> {
  let writer = writers.get(db);
  if (!writer) {
    writer = new GroupCommitWriter(db);
    writers.set(db, writer);
  }
  return writer.add(signup, challengeId);
}
