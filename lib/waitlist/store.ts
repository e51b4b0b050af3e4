import type { Db } from "../db";
import { getDb } from "../db";
import { normalizeEmail, type WaitlistSignup } from "./schema";

/** "challenge_used": the security-question token already admitted another sign-up. */
export type StoreOutcome = "created" | "duplicate" | "challenge_used";

const INSERT_ENTRY = `
  INSERT INTO waitlist_entries
    (company_name, contact_name, email, email_normalized, phone, business_type, company_size, notes, created_at, challenge_id)
  VALUES
    (@company_name, @contact_name, @email, @email_normalized, @phone, @business_type, @company_size, @notes, @created_at, @challenge_id)`;

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

/**
 * Inserts a sign-up. Whether the email is already on the list, and whether the
 * security-question token was already used, are both decided by unique indexes
 * inside the one insert, never by a read before the write, so two simultaneous
 * requests cannot both get in.
 */
export function addToWaitlist(
  signup: WaitlistSignup,
  challengeId: string | null = null,
  db: Db = getDb(),
): StoreOutcome {
  try {
    insertStatementFor(db).run({
      ...signup,
      email_normalized: normalizeEmail(signup.email),
      // ISO 8601 text in UTC, in the form the Prisma adapter wrote before (docs/operations.md),
      // so text comparison sorts by time across old and new rows.
      created_at: new Date().toISOString().replace("Z", "+00:00"),
      challenge_id: challengeId,
    });
    return "created";
  } catch (error) {
    // SQLite names the index's column: "UNIQUE constraint failed: waitlist_entries.challenge_id".
    if (isUniqueViolation(error)) return error.message.includes(".challenge_id") ? "challenge_used" : "duplicate";
    throw error;
  }
}
