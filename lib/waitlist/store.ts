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

/**
 * Inserts a sign-up. Whether the email is already on the list, and whether the
 * security-question token was already used, are both decided by unique indexes
 * inside the one insert, never by a read before the write, so two simultaneous
 * requests cannot both get in.
 */
export function addToWaitlist(
  signup: WaitlistSignup & Partial<SignupSource>,
  challengeId: string | null = null,
  db: Db = getDb(),
): StoreResult {
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
