import { copyFileSync } from "node:fs";
import { createClient } from "@libsql/client";
import BetterSqlite3 from "better-sqlite3";
import path from "node:path";
import { afterAll, beforeEach, inject } from "vitest";
import { closeDatabase, getDatabase } from "@/lib/db";

/** A row of waitlist_entries exactly as stored, column names and all (read with SQL, not mapped by the client). */
type StoredEntry = {
  id: number;
  company_name: string;
  contact_name: string;
  email: string;
  email_normalized: string;
  phone: string;
  business_type: string;
  company_size: string;
  notes: string | null;
  created_at: string;
  challenge_id: string | null;
};

/**
 * Gives the calling test file its own copy of the migrated template database,
 * points DATABASE_URL (and so the real route handler) at it, and empties the
 * tables before each test.
 */
export function setUpTestDatabase(): { file: string; url: string } {
  const template = inject("templateDatabase");
  const file = path.join(path.dirname(template), `${crypto.randomUUID()}.db`);
  copyFileSync(template, file);
  const url = `file:${file}`;
  process.env.DATABASE_URL = url;

  beforeEach(async () => {
    // One transaction, so a test never starts on half-emptied tables. Prisma's default deadline of 5 s
    // is too short for a fixture: after a test that stored 100,000 sign-ups (operator-cli's export),
    // deleting them and their search index took 5.7 s on libSQL with other stages on the same two
    // cores, and the transaction expired (CI, 2026-11-28).
    await getDatabase().$transaction(
      async (transaction) => {
        await transaction.outboxMessage.deleteMany();
        await transaction.outboxSentMinute.deleteMany();
        await transaction.followUpEvent.deleteMany();
        await transaction.emailTemplate.deleteMany();
        await transaction.waitlistEntry.deleteMany();
        await transaction.rateLimitWindow.deleteMany();
        await transaction.confirmationRecipient.deleteMany();
        await transaction.waitlistRemoval.deleteMany();
        await transaction.spentChallenge.deleteMany();
        await transaction.emailRefusal.deleteMany();
        await transaction.operator.deleteMany();
        await transaction.operatorAction.deleteMany();
        await transaction.trafficDay.deleteMany();
        await transaction.vitalDay.deleteMany();
        await transaction.visitSalt.deleteMany();
        await transaction.visitMark.deleteMany();
        await transaction.visitAddress.deleteMany();
      },
      { maxWait: 60_000, timeout: 60_000 },
    );
  });
  afterAll(() => closeDatabase());
  return { file, url };
}

export async function countEntries(): Promise<number> {
  return getDatabase().waitlistEntry.count();
}

/** Every row as SQLite holds it: the text of created_at, the internal columns. */
export async function storedEntries(): Promise<StoredEntry[]> {
  // The cast keeps created_at as the text SQLite holds, instead of the Date the client would make of it.
  const rows = await getDatabase().$queryRaw<(StoredEntry & { stored_at: string })[]>`
    SELECT *, CAST(created_at AS TEXT) AS stored_at FROM waitlist_entries ORDER BY id`;
  return rows.map(({ stored_at, ...row }) => ({ ...row, id: Number(row.id), created_at: stored_at }));
}

/**
 * Another process's long write transaction (an operator's shell, a backup tool): BEGIN IMMEDIATE
 * on a connection of the test's own, with the driver under test (libSQL's embedded engine keeps
 * its own locks, which a better-sqlite3 connection does not take part in). Held until release().
 */
export async function holdWriteLock(file: string): Promise<{ release: () => Promise<void> }> {
  if (process.env.DATABASE_DRIVER === "libsql") {
    const client = createClient({ url: `file:${file}` });
    const transaction = await client.transaction("write");
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        await transaction.commit();
        client.close();
      },
    };
  }
  const holder = new BetterSqlite3(file);
  holder.exec("BEGIN IMMEDIATE");
  return {
    release: async () => {
      if (!holder.open) return;
      if (holder.inTransaction) holder.exec("COMMIT");
      holder.close();
    },
  };
}

/** Runs SQL (several statements) on a database file with the driver under test, as a migration would. */
export async function executeScript(file: string, sql: string): Promise<void> {
  if (process.env.DATABASE_DRIVER === "libsql") {
    const client = createClient({ url: `file:${file}` });
    try {
      await client.executeMultiple(sql);
    } finally {
      client.close();
    }
    return;
  }
  const sqlite = new BetterSqlite3(file);
  try {
    sqlite.exec(sql);
  } finally {
    sqlite.close();
  }
}
