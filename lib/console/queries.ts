/**
 * The operator tool's reads and its one delete, through Prisma Client
 * (lib/db/) and its generated types.
 */
import "server-only";
import { Prisma, type Database } from "../db";
import { timestamp, utcDay } from "../time";
import { recordAction, type Actor } from "../audit/trail";
import { RECORD_COLUMNS, recordsOf, textMatches, whereClause, type OperatorRecord } from "./list";
import type { WaitlistEntry } from "../generated/prisma/client";
import { entryRecord, SIGNUP_FIELD_NAMES } from "../waitlist/fields";
import { normalizeEmail } from "../waitlist/schema";
import { removeEntry } from "../waitlist/visitor-entry";

/**
 * A sign-up as the operator tool shows and exports it: the entry, when its
 * address was confirmed, and the entry it is a duplicate of, if any.
 */
function operatorRecord(entry: WaitlistEntry): OperatorRecord {
  return { ...entryRecord(entry), confirmed_at: entry.confirmedAt ? timestamp(entry.confirmedAt) : null, duplicate_of: entry.duplicateOf };
}

/** Every column an operator sees, in the order exports use: every field of a sign-up (lib/waitlist/fields.ts) between when it came and what became of it. */
export const ENTRY_COLUMNS = [
  "id",
  "created_at",
  ...SIGNUP_FIELD_NAMES,
  "confirmed_at",
  "duplicate_of",
] as const satisfies readonly (keyof OperatorRecord)[];

export type ListFilters = {
  businessType?: string;
  companySize?: string;
  /** Only sign-ups at or after this moment. */
  since?: Date;
  /** Case-insensitive (for ASCII letters) text in the company name, contact name or email. */
  search?: string;
  /** Only those who confirmed their address (true) or did not yet (false). */
  confirmed?: boolean;
};

/** The filters as SQL conditions on waitlist_entries `e` (the search: textMatches). */
function conditionsOf(filters: ListFilters): Prisma.Sql[] {
  const { businessType, companySize, since, search, confirmed } = filters;
  const where: Prisma.Sql[] = [];
  if (businessType) where.push(Prisma.sql`e.business_type = ${businessType}`);
  if (companySize) where.push(Prisma.sql`e.company_size = ${companySize}`);
  if (confirmed !== undefined) where.push(confirmed ? Prisma.sql`e.confirmed_at IS NOT NULL` : Prisma.sql`e.confirmed_at IS NULL`);
  // created_at is ISO 8601 text in UTC, so text order is time order.
  if (since) where.push(Prisma.sql`e.created_at >= ${timestamp(since)}`);
  if (search) where.push(textMatches(search));
  return where;
}

/** Newest first: the matching entries (at most `limit`) and how many match in all. */
export async function listEntries(
  database: Database,
  filters: ListFilters,
  limit: number | null,
): Promise<{ entries: OperatorRecord[]; total: number }> {
  const where = whereClause(conditionsOf(filters));
  const [[counted], rows] = await Promise.all([
    database.$queryRaw<{ n: bigint | number }[]>`SELECT count(*) AS n FROM waitlist_entries e ${where}`,
    database.$queryRaw<OperatorRecord[]>`
      SELECT ${RECORD_COLUMNS} FROM waitlist_entries e ${where}
      ORDER BY e.created_at DESC, e.id DESC ${limit === null ? Prisma.empty : Prisma.sql`LIMIT ${limit}`}`,
  ]);
  return { entries: recordsOf(rows), total: Number(counted!.n) };
}

/** Rows fetched per query by iterateEntries: enough to amortise a query, few enough to keep memory flat. */
const PAGE_SIZE = 1_000;

/** Every entry, oldest first, a page at a time (keyset on id): an export never holds the table in memory. */
export async function* iterateEntries(database: Database): AsyncGenerator<OperatorRecord> {
  let after = 0;
  for (;;) {
    const page: WaitlistEntry[] = await database.waitlistEntry.findMany({
      where: { id: { gt: after } },
      orderBy: { id: "asc" },
      take: PAGE_SIZE,
    });
    for (const entry of page) yield operatorRecord(entry);
    if (page.length < PAGE_SIZE) return;
    after = page.at(-1)!.id;
  }
}

export function countEntries(database: Database): Promise<number> {
  return database.waitlistEntry.count();
}

type Count = { key: string | null; n: number };

type Stats = {
  total: number;
  first: Date | null;
  latest: Date | null;
  byBusinessType: Count[];
  byCompanySize: Count[];
  bySource: Count[];
  byPage: Count[];
  /** The last 30 UTC days, oldest first, days without sign-ups included. */
  perDay: { day: string; n: number }[];
  confirmed: number;
  /** Rows kept as duplicates of an older entry (npm run waitlist -- duplicates). */
  duplicates: number;
  /** Entries removed so far, by the visitor from their own page, by an operator, and by the retention period. */
  removedByVisitors: number;
  removedByOperators: number;
  removedByRetention: number;
  /** Entries no mail goes to: their address bounced (suppressed), or they unsubscribed. */
  mailSuppressed: number;
  unsubscribed: number;
};

type GroupedField = "businessType" | "companySize" | "utmSource" | "sourcePage";

/** Sign-ups per value of one field, most first. */
async function countBy(database: Database, field: GroupedField): Promise<Count[]> {
  const groups = await database.waitlistEntry.groupBy({ by: [field], _count: { _all: true } });
  return groups.map((group) => ({ key: group[field], n: group._count._all })).sort((a, b) => b.n - a.n || byKey(a.key, b.key));
}

/** SQLite's default order: NULL first, then by code point. */
function byKey(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

export async function stats(database: Database, now: Date = new Date()): Promise<Stats> {
  const days = Array.from({ length: 30 }, (_, i) => {
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 29 + i));
    return utcDay(day);
  });
  const [summary, byBusinessType, byCompanySize, bySource, byPage, perDay, confirmed, duplicates, removals, mailSuppressed, unsubscribed] =
    await Promise.all([
      database.waitlistEntry.aggregate({ _count: { _all: true }, _min: { createdAt: true }, _max: { createdAt: true } }),
      countBy(database, "businessType"),
      countBy(database, "companySize"),
      countBy(database, "utmSource"),
      countBy(database, "sourcePage"),
      // Grouping by day is not something the query API expresses; created_at is stored as
      // ISO 8601 text (docs/operations.md), so its first ten characters are the UTC day.
      database.$queryRaw<{ day: string; n: bigint | number }[]>`
      SELECT substr(created_at, 1, 10) AS day, count(*) AS n FROM waitlist_entries
      WHERE created_at >= ${days[0]} GROUP BY day`,
      database.waitlistEntry.count({ where: { confirmedAt: { not: null } } }),
      database.waitlistEntry.count({ where: { duplicateOf: { not: null } } }),
      database.waitlistRemoval.groupBy({ by: ["removedBy"], _count: { _all: true } }),
      database.waitlistEntry.count({ where: { mailSuppressedAt: { not: null } } }),
      database.waitlistEntry.count({ where: { unsubscribedAt: { not: null } } }),
    ]);
  const removedBy = (who: string) => removals.find((group) => group.removedBy === who)?._count._all ?? 0;
  const counted = new Map(perDay.map(({ day, n }) => [day, Number(n)]));
  return {
    total: summary._count._all,
    first: summary._min.createdAt,
    latest: summary._max.createdAt,
    byBusinessType,
    byCompanySize,
    bySource,
    byPage,
    perDay: days.map((day) => ({ day, n: counted.get(day) ?? 0 })),
    confirmed,
    duplicates,
    removedByVisitors: removedBy("visitor"),
    removedByOperators: removedBy("operator"),
    removedByRetention: removedBy("retention"),
    mailSuppressed,
    unsubscribed,
  };
}

/** The entry of the mailbox an address names (any spelling of it), not one of its duplicates. */
export async function findByEmail(database: Database, email: string): Promise<OperatorRecord | undefined> {
  const entry = await database.waitlistEntry.findFirst({ where: { emailNormalized: normalizeEmail(email), duplicateOf: null } });
  return entry ? operatorRecord(entry) : undefined;
}

export async function findById(database: Database, id: number): Promise<OperatorRecord | undefined> {
  const entry = await database.waitlistEntry.findUnique({ where: { id } });
  return entry ? operatorRecord(entry) : undefined;
}

type DuplicateGroup = { entry: OperatorRecord; duplicates: OperatorRecord[] };

/**
 * Rows marked as duplicates (stored before the canonical mailbox, sharing one
 * with an older entry), each group under the entry they duplicate, oldest first.
 */
export async function listDuplicates(database: Database): Promise<DuplicateGroup[]> {
  const duplicates = await database.waitlistEntry.findMany({
    where: { duplicateOf: { not: null } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  if (duplicates.length === 0) return [];
  const entries = await database.waitlistEntry.findMany({
    where: { id: { in: [...new Set(duplicates.map((row) => row.duplicateOf!))] } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return entries.map((entry) => ({
    entry: operatorRecord(entry),
    duplicates: duplicates.filter((row) => row.duplicateOf === entry.id).map(operatorRecord),
  }));
}

/** Deletes the entry and what was owed about it, counts the removal (by an operator) and audits it. */
export function removeById(database: Database, id: number, actor: Actor, now = new Date()): Promise<boolean> {
  return removeEntry(database, { id }, "operator", now, actor);
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

export type DeliveryRow = {
  id: string;
  kind: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date;
  leaseOwner: string | null;
  lastError: string | null;
  createdAt: Date;
  entry: { id: number; email: string };
};

/** How many deliveries there are of each kind in each status. */
export async function deliveryCounts(database: Database): Promise<{ kind: string; status: string; n: number }[]> {
  const groups = await database.outboxMessage.groupBy({
    by: ["kind", "status"],
    _count: { _all: true },
    orderBy: [{ kind: "asc" }, { status: "asc" }],
  });
  return groups.map((group) => ({ kind: group.kind, status: group.status, n: group._count._all }));
}

/** Deliveries in these statuses, oldest first (the ones waiting longest lead), with their entry. */
export async function listDeliveries(database: Database, statuses: DeliveryStatus[], limit: number): Promise<DeliveryRow[]> {
  return database.outboxMessage.findMany({
    where: { status: { in: statuses } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: limit,
    select: {
      id: true,
      kind: true,
      status: true,
      attempts: true,
      nextAttemptAt: true,
      leaseOwner: true,
      lastError: true,
      createdAt: true,
      entry: { select: { id: true, email: true } },
    },
  });
}

/**
 * Makes failed deliveries (one, or all) pending again with a fresh set of
 * attempts, due now: each instance's worker picks them up on its next look
 * (every 2 s). Returns how many.
 */
export async function redeliver(
  database: Database,
  which: { id: string } | { allFailed: true },
  actor: Actor,
  now: Date = new Date(),
): Promise<number> {
  return database.$transaction(async (tx) => {
    // The write first: a transaction that reads before it writes gets no wait for SQLite's lock.
    const { count } = await tx.outboxMessage.updateMany({
      where: { status: "failed", ...("id" in which ? { id: which.id } : {}) },
      data: { status: "pending", attempts: 0, nextAttemptAt: now, leaseOwner: null, leaseExpiresAt: null },
    });
    const entry =
      "id" in which && count > 0
        ? await tx.outboxMessage.findUnique({ where: { id: which.id }, select: { entryId: true, kind: true } })
        : null;
    if (count > 0) {
      const detail = "id" in which ? { delivery: which.id, kind: entry?.kind } : { all_failed: count };
      await recordAction(tx, { actor, action: "redelivered", entryId: entry?.entryId ?? null, detail, at: now });
    }
    return count;
  });
}

/** Where the team stands with an entry (lib/follow-up/). */
export type FollowUpStatus = Pick<
  WaitlistEntry,
  | "id"
  | "contactName"
  | "createdAt"
  | "followUpState"
  | "closedReason"
  | "stateChangedAt"
  | "stateChangedBy"
  | "firstContactedAt"
  | "invitedAt"
  | "assignedTo"
>;

type EntryDetail = {
  entry: OperatorRecord;
  /** When the visitor unsubscribed from all email (one click): no email of any kind goes to them. */
  unsubscribedAt: Date | null;
  /** When their address bounced, and the mail system's status: no email goes to it until lifted. */
  mailSuppressed: { at: Date; reason: string | null } | null;
  followUp: FollowUpStatus;
  deliveries: {
    id: string;
    kind: string;
    event: string;
    status: string;
    attempts: number;
    lastError: string | null;
    createdAt: Date;
    nextAttemptAt: Date;
    deliveredAt: Date | null;
  }[];
};

/** One entry with everything owed about it (the console's entry page). */
export async function entryDetail(database: Database, id: number): Promise<EntryDetail | undefined> {
  const entry = await database.waitlistEntry.findUnique({
    where: { id },
    include: {
      deliveries: {
        orderBy: { createdAt: "asc" },
        select: {
          id: true,
          kind: true,
          event: true,
          status: true,
          attempts: true,
          lastError: true,
          createdAt: true,
          nextAttemptAt: true,
          deliveredAt: true,
        },
      },
    },
  });
  if (!entry) return undefined;
  const {
    id: _id,
    contactName,
    createdAt,
    followUpState,
    closedReason,
    stateChangedAt,
    stateChangedBy,
    firstContactedAt,
    invitedAt,
    assignedTo,
  } = entry;
  return {
    entry: operatorRecord(entry),
    unsubscribedAt: entry.unsubscribedAt,
    mailSuppressed: entry.mailSuppressedAt ? { at: entry.mailSuppressedAt, reason: entry.mailSuppressedReason } : null,
    followUp: {
      id,
      contactName,
      createdAt,
      followUpState,
      closedReason,
      stateChangedAt,
      stateChangedBy,
      firstContactedAt,
      invitedAt,
      assignedTo,
    },
    deliveries: entry.deliveries,
  };
}
