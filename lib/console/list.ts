/**
 * The console's list of sign-ups: filters, search and keyset paging, newest first,
 * and the same filtered rows streamed as a download. Built for a list of a million
 * rows (bench/operator.ts): every page walks the created_at index from a cursor,
 * and search goes through the trigram index waitlist_search (migration
 * 20261123140000_operator_console), never a scan of every row's text; the few entries newer
 * than the index (it is filled each second behind the sign-ups: search-index.ts) are read directly.
 */
import "server-only";
import { z } from "zod";
import { Prisma, type Database } from "../db";
import { blankAsUndefined, cursorOf, cursorSchema, parseFilters, splitCursor, utcDaySchema, type QueryParams } from "../filters";
import { timestamp, utcDayPlus } from "../time";
import { SIGNUP_FIELD_NAMES, type EntryRecord } from "../waitlist/fields";
import { BUSINESS_TYPE_VALUES, COMPANY_SIZE_VALUES } from "../content/signup-options";

/** A sign-up as operators see it: every field, and what became of it. */
export type OperatorRecord = EntryRecord & { confirmed_at: string | null; duplicate_of: number | null };

/** utm_source as the console shows it; NULL (a visit without one) is "direct". */
export const DIRECT_SOURCE = "direct";
const PAGE_SIZE = 50;
/**
 * The shortest search: the index is of trigrams, and a shorter term could only be found by
 * reading every row's text (about 0.8 s at a million rows, bench/operator.ts).
 */
export const MIN_SEARCH_LENGTH = 3;

/** The list's filters as they arrive in a URL's query (the filter form is a GET form). */
export const listQuerySchema = z.object({
  type: z.preprocess(blankAsUndefined, z.enum(BUSINESS_TYPE_VALUES).optional()),
  size: z.preprocess(blankAsUndefined, z.enum(COMPANY_SIZE_VALUES).optional()),
  source: z.preprocess(blankAsUndefined, z.string().trim().max(200).optional()),
  confirmed: z.preprocess(blankAsUndefined, z.enum(["yes", "no"]).optional()),
  /** Entries no email goes to: their address bounced, or they unsubscribed. */
  mail: z.preprocess(blankAsUndefined, z.enum(["bounced", "unsubscribed"]).optional()),
  from: z.preprocess(blankAsUndefined, utcDaySchema.optional()),
  to: z.preprocess(blankAsUndefined, utcDaySchema.optional()),
  q: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .trim()
      .min(MIN_SEARCH_LENGTH, { error: `Search needs at least ${MIN_SEARCH_LENGTH} characters.` })
      .max(200)
      .optional(),
  ),
  /** Older than this row: the last row shown. */
  after: cursorSchema,
  /** Newer than this row: the first row shown. */
  before: cursorSchema,
});

export type ListQuery = z.infer<typeof listQuerySchema>;
export const FILTER_KEYS = [
  "type",
  "size",
  "source",
  "confirmed",
  "mail",
  "from",
  "to",
  "q",
] as const satisfies readonly (keyof ListQuery)[];

/** Reads the list's query (search params of the page or the download). */
export function parseListQuery(params: QueryParams): { query: ListQuery; problems: string[] } {
  return parseFilters(listQuerySchema, params);
}

export function hasFilters(query: ListQuery): boolean {
  return FILTER_KEYS.some((key) => query[key] !== undefined);
}

/** The query string for these filters (and a cursor), for links and the download. */
export function queryString(query: Partial<Record<keyof ListQuery | "format", string>>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** A phrase for FTS5: the text as one quoted string (its own quotes doubled), so operators typed are letters. */
function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * A search as a plain substring of the company, the contact or the email of `e`, ASCII letters in
 * either case: instr() on lower() of both, not LIKE, whose % and _ are wildcards that Prisma's
 * `contains` does not escape on SQLite (a search for "100%" matched every address holding "100").
 */
export function textMatches(search: string): Prisma.Sql {
  return Prisma.sql`(instr(lower(e.company_name), lower(${search})) > 0 OR instr(lower(e.contact_name), lower(${search})) > 0 OR instr(lower(e.email), lower(${search})) > 0)`;
}

/** Every column of an operator's record, from waitlist_entries as `e`; read back with recordsOf. */
export const RECORD_COLUMNS = Prisma.raw(
  ["id", "created_at", ...SIGNUP_FIELD_NAMES, "confirmed_at", "duplicate_of"].map((c) => `e."${c}"`).join(", "),
);

/** The WHERE conditions of the filters (without any cursor, and without the search, which drives its own query). */
function conditions(query: ListQuery): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (query.type) where.push(Prisma.sql`e.business_type = ${query.type}`);
  if (query.size) where.push(Prisma.sql`e.company_size = ${query.size}`);
  if (query.source)
    where.push(query.source === DIRECT_SOURCE ? Prisma.sql`e.utm_source IS NULL` : Prisma.sql`e.utm_source = ${query.source}`);
  if (query.confirmed) where.push(query.confirmed === "yes" ? Prisma.sql`e.confirmed_at IS NOT NULL` : Prisma.sql`e.confirmed_at IS NULL`);
  if (query.mail)
    where.push(query.mail === "bounced" ? Prisma.sql`e.mail_suppressed_at IS NOT NULL` : Prisma.sql`e.unsubscribed_at IS NOT NULL`);
  // created_at is ISO 8601 text in UTC ("2026-11-23T17:37:59.405+00:00"), so text order is time order.
  if (query.from) where.push(Prisma.sql`e.created_at >= ${`${query.from}T00:00:00.000+00:00`}`);
  if (query.to) {
    const next = utcDayPlus(query.to, 1);
    where.push(Prisma.sql`e.created_at < ${`${next}T00:00:00.000+00:00`}`);
  }
  return where;
}

export function whereClause(parts: Prisma.Sql[]): Prisma.Sql {
  return parts.length === 0 ? Prisma.empty : Prisma.sql`WHERE ${Prisma.join(parts, " AND ")}`;
}

type Direction = { older: string } | { newer: string } | null;

/**
 * Rows newest first from a cursor, in one of two orders:
 * - without a search, (created_at, id): the created_at index holds the id too, so the query walks
 *   it from the cursor without sorting, date ranges included;
 * - with a search, id (the order rows were added, which is created_at's): the trigram
 *   index hands its matches out in id order, so a page stops after PAGE_SIZE matches that pass the
 *   filters instead of collecting every match of a common word first (a 150,000-match search went
 *   from about 540 ms to under 10, bench/operator.ts).
 * The cursor is "<created_at>_<id>" either way; a search's paging links keep the search.
 */
async function selectRows(database: Database, query: ListQuery, direction: Direction, limit: number): Promise<OperatorRecord[]> {
  const where = conditions(query);
  const indexed = query.q !== undefined;
  const newestFirst = !(direction && "newer" in direction);
  if (direction) {
    const [at, id] = splitCursor("older" in direction ? direction.older : direction.newer);
    const comparison = Prisma.raw("older" in direction ? "<" : ">");
    where.push(indexed ? Prisma.sql`e.id ${comparison} ${id}` : Prisma.sql`(e.created_at, e.id) ${comparison} (${at}, ${id})`);
  }
  const order = Prisma.raw(newestFirst ? "DESC" : "ASC");
  // A search: the index's matches, and the entries newer than the index (a second's worth at most)
  // matched directly, merged in id order. Each side stops after `limit` rows.
  const searched = () => {
    const tail = [Prisma.sql`e.id > (SELECT indexed_up_to FROM waitlist_search_state)`, textMatches(query.q!)];
    return database.$queryRaw<OperatorRecord[]>`
      SELECT * FROM (SELECT ${RECORD_COLUMNS} FROM waitlist_entries e ${whereClause([...tail, ...where])} ORDER BY e.id ${order} LIMIT ${limit})
      UNION ALL
      SELECT * FROM (SELECT ${RECORD_COLUMNS} FROM waitlist_search s JOIN waitlist_entries e ON e.id = s.rowid
        ${whereClause([Prisma.sql`waitlist_search MATCH ${ftsPhrase(query.q!)}`, ...where])}
        ORDER BY s.rowid ${order} LIMIT ${limit})
      ORDER BY id ${order} LIMIT ${limit}`;
  };
  const rows = indexed
    ? await searched()
    : await database.$queryRaw<OperatorRecord[]>`
        SELECT ${RECORD_COLUMNS} FROM waitlist_entries e ${whereClause(where)}
        ORDER BY e.created_at ${order}, e.id ${order} LIMIT ${limit}`;
  const records = recordsOf(rows);
  return newestFirst ? records : records.reverse();
}

/** Rows read with RECORD_COLUMNS as records. Prisma hands DATETIME columns back as Dates; records carry the stored text form (lib/waitlist/store.ts). */
export function recordsOf(rows: OperatorRecord[]): OperatorRecord[] {
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    created_at: timestamp(new Date(row.created_at)),
    confirmed_at: row.confirmed_at === null ? null : timestamp(new Date(row.confirmed_at)),
    duplicate_of: row.duplicate_of === null ? null : Number(row.duplicate_of),
  }));
}

type ListPage = {
  entries: OperatorRecord[];
  /** The cursor for the next (older) page, if there is one. */
  older: string | null;
  /** The cursor for the previous (newer) page, if there is one. */
  newer: string | null;
};

/** One page of the list: PAGE_SIZE rows, newest first, from the query's cursor. */
export async function listPage(database: Database, query: ListQuery, limit = PAGE_SIZE): Promise<ListPage> {
  const direction: Direction = query.before ? { newer: query.before } : query.after ? { older: query.after } : null;
  // One row more than shown says whether there is a page beyond.
  const rows = await selectRows(database, query, direction, limit + 1);
  const beyond = rows.length > limit;
  const entries = direction && "newer" in direction ? rows.slice(beyond ? 1 : 0) : rows.slice(0, limit);
  const first = entries[0];
  const last = entries.at(-1);
  const isNewerPage = direction !== null && "newer" in direction;
  return {
    entries,
    older: last && (isNewerPage || beyond) ? cursorOf(last) : null,
    newer: first && (isNewerPage ? beyond : direction !== null) ? cursorOf(first) : null,
  };
}

/** Rows per query when streaming a download: enough to amortise a query, few enough to keep memory flat. */
const EXPORT_BATCH = 2_000;

/** Every row the filters match, newest first, a batch at a time (the cursor is ignored). */
export async function* matchingEntries(database: Database, query: ListQuery): AsyncGenerator<OperatorRecord[]> {
  let direction: Direction = null;
  for (;;) {
    const rows = await selectRows(database, query, direction, EXPORT_BATCH);
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_BATCH) return;
    direction = { older: cursorOf(rows.at(-1)!) };
  }
}
