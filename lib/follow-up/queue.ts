/**
 * The queue: entries awaiting first contact, the oldest deadline first (sign-up
 * time plus 48 hours, so sign-up order), with filters by assignee, business type
 * and size, keyset pages, and how many are overdue or due within 6 hours. Built
 * for a million entries (bench/operator.ts): a page walks the index on
 * (follow_up_state, created_at), or (assigned_to, follow_up_state, created_at),
 * from its cursor; the counts stop at COUNT_CAP.
 */
import "server-only";
import { z } from "zod";
import { Prisma, type Database } from "../db";
import { timestamp } from "../time";
import { BUSINESS_TYPE_VALUES, COMPANY_SIZE_VALUES } from "../content/signup-options";
import { blankAsUndefined, cursorOf, cursorSchema, parseFilters, splitCursor } from "../filters";
import { DUE_SOON_MS, RESPONSE_MS } from "./states";

const QUEUE_PAGE_SIZE = 50;
/** Counts above this are shown as "10,000+": counting further would read every waiting row. */
export const COUNT_CAP = 10_000;
/** The assignee filter's word for "nobody" (besides an operator's id, and "me", which the page resolves). */
export const NOBODY = "none";

const queueQuerySchema = z.object({
  type: z.preprocess(blankAsUndefined, z.enum(BUSINESS_TYPE_VALUES).optional()),
  size: z.preprocess(blankAsUndefined, z.enum(COMPANY_SIZE_VALUES).optional()),
  /** An operator's id, "none" (unassigned) or "me" (resolved by the page to the signed-in operator). */
  assignee: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .max(64)
      .regex(/^[\w-]+$/)
      .optional(),
  ),
  /** After this row: the last row shown. */
  after: cursorSchema,
});

type QueueQuery = z.infer<typeof queueQuerySchema>;

export function parseQueueQuery(params: Record<string, string | string[] | undefined>): { query: QueueQuery; problems: string[] } {
  return parseFilters(queueQuerySchema, params);
}

type QueueRow = {
  id: number;
  createdAt: Date;
  contactName: string;
  companyName: string;
  businessType: string;
  companySize: string;
  assignedTo: string | null;
};

type QueuePage = {
  rows: QueueRow[];
  /** The cursor of the next page, if there is one. */
  next: string | null;
  /** Of the entries these filters match: overdue, due within 6 hours, and all awaiting (each at most COUNT_CAP). */
  counts: { overdue: number; dueSoon: number; awaiting: number };
};

function conditions(query: QueueQuery): Prisma.Sql[] {
  const where: Prisma.Sql[] = [Prisma.sql`follow_up_state = 'awaiting'`];
  if (query.assignee === NOBODY) where.push(Prisma.sql`assigned_to IS NULL`);
  else if (query.assignee) where.push(Prisma.sql`assigned_to = ${query.assignee}`);
  if (query.type) where.push(Prisma.sql`business_type = ${query.type}`);
  if (query.size) where.push(Prisma.sql`company_size = ${query.size}`);
  return where;
}

const and = (parts: Prisma.Sql[]) => Prisma.join(parts, " AND ");

async function cappedCount(database: Database, where: Prisma.Sql[]): Promise<number> {
  const [row] = await database.$queryRaw<
    { n: bigint | number }[]
  >`SELECT count(*) AS n FROM (SELECT 1 FROM waitlist_entries WHERE ${and(where)} LIMIT ${COUNT_CAP})`;
  return Number(row?.n ?? 0);
}

/** One page of the queue (`query.assignee` already resolved from "me"). */
export async function queuePage(database: Database, query: QueueQuery, now = new Date(), limit = QUEUE_PAGE_SIZE): Promise<QueuePage> {
  const where = conditions(query);
  const page = [...where];
  if (query.after) {
    const [at, id] = splitCursor(query.after);
    page.push(Prisma.sql`(created_at, id) > (${at}, ${id})`);
  }
  // Overdue: signed up 48 hours ago or more. Due soon: between 48 and 42 hours ago.
  const overdueBefore = timestamp(new Date(now.getTime() - RESPONSE_MS));
  const dueSoonBefore = timestamp(new Date(now.getTime() - RESPONSE_MS + DUE_SOON_MS));
  const [rows, overdue, dueSoon, awaiting] = await Promise.all([
    database.$queryRaw<
      {
        id: bigint | number;
        created_at: Date;
        contact_name: string;
        company_name: string;
        business_type: string;
        company_size: string;
        assigned_to: string | null;
      }[]
    >`
      SELECT id, created_at, contact_name, company_name, business_type, company_size, assigned_to
      FROM waitlist_entries WHERE ${and(page)}
      ORDER BY created_at, id LIMIT ${limit + 1}`,
    cappedCount(database, [...where, Prisma.sql`created_at <= ${overdueBefore}`]),
    cappedCount(database, [...where, Prisma.sql`created_at > ${overdueBefore}`, Prisma.sql`created_at <= ${dueSoonBefore}`]),
    cappedCount(database, where),
  ]);
  const shown = rows.slice(0, limit).map((row) => ({
    id: Number(row.id),
    createdAt: new Date(row.created_at),
    contactName: row.contact_name,
    companyName: row.company_name,
    businessType: row.business_type,
    companySize: row.company_size,
    assignedTo: row.assigned_to,
  }));
  const last = shown.at(-1);
  return {
    rows: shown,
    next: rows.length > limit && last ? cursorOf({ created_at: timestamp(last.createdAt), id: last.id }) : null,
    counts: { overdue, dueSoon, awaiting },
  };
}
