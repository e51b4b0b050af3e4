/**
 * What a page's beacon sends (lib/analytics/beacon.ts) and the server accepts (handler.ts):
 * one event per request, as JSON. The browser imports only the types from here, so zod
 * stays out of the page's download.
 */
import { z } from "zod";
import { LIMITS } from "../waitlist/limits";
import { METRICS } from "./vitals";

/** A beacon's body is far smaller than this; more is refused unread (413). */
export const MAX_VISIT_BODY_BYTES = 1024;

/** The funnel's steps a page reports: a page view, the join dialog opened, the form sent. */
export type Step = "view" | "open" | "submit";

const utm = z.string().trim().max(LIMITS.utm).optional();
const page = z.string().max(LIMITS.sourcePage).startsWith("/");

/** The campaign the visit came with (the landing URL's utm_*, as lib/waitlist/source.ts remembers it). */
const campaign = { utm_source: utm, utm_medium: utm, utm_campaign: utm };

export const visitEventSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("view"),
    page,
    referrer: z
      .string()
      .max(LIMITS.sourcePage * 4)
      .optional(),
    ...campaign,
  }),
  z.strictObject({ type: z.enum(["open", "submit"]), page, ...campaign }),
  z.strictObject({ type: z.literal("vital"), page, metric: z.enum(METRICS), value: z.number().finite().min(0).max(600_000) }),
]);

export type VisitEvent = z.infer<typeof visitEventSchema>;
