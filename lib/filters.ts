/**
 * Filters as they arrive in a page's URL (the console's filter forms are GET forms) or from the
 * shell: empty fields, UTC days, keyset cursors, and one way to read a set of them.
 */
import { z } from "zod";
import { utcDay } from "./time";

/**
 * A UTC day as forms and the shell give it (YYYY-MM-DD), and one that exists: Date.parse rolls
 * 2026-02-30 over into March, so the day must come back unchanged.
 */
export const utcDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "Use a date like 2026-11-01." })
  .refine(
    (text) => {
      const time = Date.parse(`${text}T00:00:00Z`);
      return !Number.isNaN(time) && utcDay(new Date(time)) === text;
    },
    { error: "That is not a date." },
  );
/** An empty field of a GET filter form means "any". */
export const blankAsUndefined = (value: unknown) => (value === "" ? undefined : value);
/** A keyset cursor in a URL: "<created_at>_<id>" of a row shown. */
export const cursorSchema = z.preprocess(
  blankAsUndefined,
  z
    .string()
    .max(80)
    .regex(/^[0-9T:.+\-Z ]+_\d+$/)
    .optional(),
);

export type QueryParams = URLSearchParams | Record<string, string | string[] | undefined>;

/**
 * A page's filters from its URL, by `schema` (each key optional): what is invalid is dropped
 * and reported, not guessed at, and the rest kept. Shared by the list and the follow-up queue.
 */
export function parseFilters<S extends z.ZodObject>(schema: S, params: QueryParams): { query: z.infer<S>; problems: string[] } {
  const entries =
    params instanceof URLSearchParams
      ? [...params.entries()]
      : Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v] as const);
  const raw = Object.fromEntries(entries.filter(([key]) => key in schema.shape));
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { query: parsed.data, problems: [] };
  const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  const kept = schema.parse(Object.fromEntries(Object.entries(raw).filter(([key]) => !bad.has(key))));
  return { query: kept, problems: parsed.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`) };
}

/** A row's place in a keyset list, for the next page's link: "<created_at>_<id>". */
export function cursorOf(row: { created_at: string; id: number }): string {
  return `${row.created_at}_${row.id}`;
}

export function splitCursor(cursor: string): [string, number] {
  const at = cursor.lastIndexOf("_");
  return [cursor.slice(0, at), Number(cursor.slice(at + 1))];
}
