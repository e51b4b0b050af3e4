/**
 * The operator tool's reads and its one delete, as SQL on the site's own
 * database connection (lib/db.ts). Values are always bound, never spliced.
 */
import type { Db } from "../db";
import { normalizeEmail } from "../waitlist/schema";
import { timestamp, type WaitlistEntry } from "../waitlist/store";

/** Every column an operator sees, in the order exports use. */
export const ENTRY_COLUMNS = [
  "id",
  "created_at",
  "company_name",
  "contact_name",
  "email",
  "phone",
  "business_type",
  "company_size",
  "notes",
  "source_page",
  "utm_source",
  "utm_medium",
  "utm_campaign",
] as const satisfies readonly (keyof WaitlistEntry)[];

const SELECT_ENTRY = `SELECT ${ENTRY_COLUMNS.join(", ")} FROM waitlist_entries`;

export type ListFilters = {
  businessType?: string;
  companySize?: string;
  /** Only sign-ups at or after this moment. */
  since?: Date;
  /** Case-insensitive (for ASCII letters) text in the company name, contact name or email. */
  search?: string;
};

function whereClause(filters: ListFilters): { sql: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (filters.businessType) {
    conditions.push("business_type = ?");
    params.push(filters.businessType);
  }
  if (filters.companySize) {
    conditions.push("company_size = ?");
    params.push(filters.companySize);
  }
  if (filters.since) {
    // created_at is ISO 8601 text in UTC, so text order is time order.
    conditions.push("created_at >= ?");
    params.push(timestamp(filters.since));
  }
  if (filters.search) {
    const pattern = `%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push("(company_name LIKE ? ESCAPE '\\' OR contact_name LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\')");
    params.push(pattern, pattern, pattern);
  }
  return { sql: conditions.length ? ` WHERE ${conditions.join(" AND ")}` : "", params };
}

/** Newest first: the matching entries (at most `limit`) and how many match in all. */
export function listEntries(db: Db, filters: ListFilters, limit: number | null): { entries: WaitlistEntry[]; total: number } {
  const { sql, params } = whereClause(filters);
  const total = (db.prepare(`SELECT count(*) AS n FROM waitlist_entries${sql}`).get(...params) as { n: number }).n;
  const entries = db
    .prepare(`${SELECT_ENTRY}${sql} ORDER BY created_at DESC, id DESC${limit === null ? "" : " LIMIT ?"}`)
    .all(...params, ...(limit === null ? [] : [limit])) as WaitlistEntry[];
  return { entries, total };
}

/** Every entry, oldest first, one row at a time: an export never holds the table in memory. */
export function iterateEntries(db: Db): IterableIterator<WaitlistEntry> {
  return db.prepare(`${SELECT_ENTRY} ORDER BY id`).iterate() as IterableIterator<WaitlistEntry>;
}

export function countEntries(db: Db): number {
  return (db.prepare("SELECT count(*) AS n FROM waitlist_entries").get() as { n: number }).n;
}

export type Stats = {
  total: number;
  first: string | null;
  latest: string | null;
  byBusinessType: { key: string; n: number }[];
  byCompanySize: { key: string; n: number }[];
  bySource: { key: string | null; n: number }[];
  byPage: { key: string | null; n: number }[];
  /** The last 30 UTC days, oldest first, days without sign-ups included. */
  perDay: { day: string; n: number }[];
};

export function stats(db: Db, now: Date = new Date()): Stats {
  const groupBy = (column: string) =>
    db.prepare(`SELECT ${column} AS key, count(*) AS n FROM waitlist_entries GROUP BY ${column} ORDER BY n DESC, key`).all() as {
      key: string | null;
      n: number;
    }[];
  const { total, first, latest } = db
    .prepare("SELECT count(*) AS total, min(created_at) AS first, max(created_at) AS latest FROM waitlist_entries")
    .get() as { total: number; first: string | null; latest: string | null };

  const days = Array.from({ length: 30 }, (_, i) => {
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 29 + i));
    return day.toISOString().slice(0, 10);
  });
  const counted = new Map(
    (
      db
        .prepare("SELECT substr(created_at, 1, 10) AS day, count(*) AS n FROM waitlist_entries WHERE created_at >= ? GROUP BY day")
        .all(days[0]) as { day: string; n: number }[]
    ).map(({ day, n }) => [day, n]),
  );

  return {
    total,
    first,
    latest,
    byBusinessType: groupBy("business_type") as { key: string; n: number }[],
    byCompanySize: groupBy("company_size") as { key: string; n: number }[],
    bySource: groupBy("utm_source"),
    byPage: groupBy("source_page"),
    perDay: days.map((day) => ({ day, n: counted.get(day) ?? 0 })),
  };
}

export function findByEmail(db: Db, email: string): WaitlistEntry | undefined {
  return db.prepare(`${SELECT_ENTRY} WHERE email_normalized = ?`).get(normalizeEmail(email)) as WaitlistEntry | undefined;
}

export function removeById(db: Db, id: number): boolean {
  return db.prepare("DELETE FROM waitlist_entries WHERE id = ?").run(id).changes === 1;
}
