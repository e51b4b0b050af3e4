/**
 * Who gets an update: the entry list's filters (business type, company size, follow-up state,
 * source and campaign, joined between, whether the address is confirmed), as a form or the shell
 * gives them. Unsubscribed, bounced and duplicate entries never get one, whatever the filters say.
 */
import "server-only";
import { z } from "zod";
import { Prisma } from "../db";
import { blankAsUndefined, utcDaySchema } from "../filters";
import { utcDayPlus } from "../time";
import { BUSINESS_TYPE_VALUES, COMPANY_SIZE_VALUES } from "../content/signup-options";
import { FOLLOW_UP_STATES } from "../follow-up/states";

/** utm_source as the console shows it; NULL (a visit without one) is "direct" (as lib/console/list.ts). */
const DIRECT = "direct";
/** utm_campaign NULL is "none". */
const NO_CAMPAIGN = "none";

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsUndefined, schema.optional());

export const segmentSchema = z
  .object({
    type: optional(z.enum(BUSINESS_TYPE_VALUES, { error: "Choose a business type from the list." })),
    size: optional(z.enum(COMPANY_SIZE_VALUES, { error: "Choose a company size from the list." })),
    state: optional(z.enum(FOLLOW_UP_STATES, { error: "Choose a follow-up state from the list." })),
    source: optional(z.string().trim().max(200)),
    campaign: optional(z.string().trim().max(200)),
    confirmed: optional(z.enum(["yes", "no"], { error: "Confirmed is yes or no." })),
    from: optional(utcDaySchema),
    to: optional(utcDaySchema),
  })
  .strict()
  .refine((segment) => !segment.from || !segment.to || segment.from <= segment.to, {
    error: "The first day comes before the last.",
    path: ["to"],
  });

export type Segment = z.infer<typeof segmentSchema>;
export const SEGMENT_KEYS = ["type", "size", "state", "source", "campaign", "confirmed", "from", "to"] as const;

/** The entries of a segment as SQL conditions on waitlist_entries `e`: only entries mail may go to. */
export function segmentConditions(segment: Segment): Prisma.Sql {
  const where: Prisma.Sql[] = [
    Prisma.sql`e.unsubscribed_at IS NULL`,
    Prisma.sql`e.mail_suppressed_at IS NULL`,
    Prisma.sql`e.duplicate_of IS NULL`,
    Prisma.sql`e.public_id IS NOT NULL`,
  ];
  if (segment.type) where.push(Prisma.sql`e.business_type = ${segment.type}`);
  if (segment.size) where.push(Prisma.sql`e.company_size = ${segment.size}`);
  if (segment.state) where.push(Prisma.sql`e.follow_up_state = ${segment.state}`);
  if (segment.source)
    where.push(segment.source === DIRECT ? Prisma.sql`e.utm_source IS NULL` : Prisma.sql`e.utm_source = ${segment.source}`);
  if (segment.campaign)
    where.push(segment.campaign === NO_CAMPAIGN ? Prisma.sql`e.utm_campaign IS NULL` : Prisma.sql`e.utm_campaign = ${segment.campaign}`);
  if (segment.confirmed)
    where.push(segment.confirmed === "yes" ? Prisma.sql`e.confirmed_at IS NOT NULL` : Prisma.sql`e.confirmed_at IS NULL`);
  // created_at is ISO 8601 text in UTC, so text order is time order.
  if (segment.from) where.push(Prisma.sql`e.created_at >= ${`${segment.from}T00:00:00.000+00:00`}`);
  if (segment.to) where.push(Prisma.sql`e.created_at < ${`${utcDayPlus(segment.to, 1)}T00:00:00.000+00:00`}`);
  return Prisma.join(where, " AND ");
}

/** The segment in words, for the console, the shell and the audit log: "type hvac, joined 2026-11-01 to 2026-11-30". */
export function describeSegment(segment: Segment): string {
  const parts: string[] = [];
  for (const key of SEGMENT_KEYS) if (segment[key] !== undefined && key !== "from" && key !== "to") parts.push(`${key} ${segment[key]}`);
  if (segment.from || segment.to) parts.push(`joined ${segment.from ?? "any time"} to ${segment.to ?? "now"}`);
  return parts.length === 0 ? "everyone on the list" : parts.join(", ");
}
