/**
 * What the team reads of the counts: the funnel from a visit to an invitation, per page and
 * per campaign, over a range of UTC days; the referring sites; real visitors' page speed. The
 * first three steps come from traffic_days (visits), the rest from signup_days (entries), so
 * a page of figures costs a few small grouped reads however many visits and entries there are.
 *
 * "Visitors" over a range is the sum of each day's different visitors: the hash changes daily,
 * so a visitor who came on three days counts three times (as in every cookie-less analytics).
 */
import "server-only";
import type { Database } from "../db";
import { z } from "zod";
import { blankAsUndefined, utcDaySchema } from "../filters";
import { csvRecord } from "../csv";
import { campaignKey, campaignOfKey } from "./record";
import { utcDay } from "../time";
import { DEVICES, METRICS, percentileOf, ratingOf, type Device, type Metric, type Rating } from "./vitals";

export type DayRange = { from: string; to: string };

/** The funnel's figures, in order. */
export const FUNNEL_STEPS = {
  visitors: "Visitors",
  opened: "Opened the form",
  submitted: "Sent the form",
  stored: "Signed up",
  confirmed: "Confirmed email",
  contacted48h: "Contacted within 48 h",
  invited: "Invited",
} as const;
export type FunnelStep = keyof typeof FUNNEL_STEPS;
export type Funnel = Record<FunnelStep, number>;

type PageFunnel = Funnel & { page: string };
export type CampaignFunnel = Funnel & { source: string; medium: string; campaign: string };

const emptyFunnel = (): Funnel => ({ visitors: 0, opened: 0, submitted: 0, stored: 0, confirmed: 0, contacted48h: 0, invited: 0 });

/** The range's days as given, or the last `days` days to today (UTC). */
export function lastDays(days: number, now = new Date()): DayRange {
  return { from: utcDay(new Date(now.getTime() - (days - 1) * 86_400_000)), to: utcDay(now) };
}

/** A range from days already checked (utcDaySchema), the last 28 days where one is missing; from after to is swapped. */
export function rangeOf(from: string | undefined, to: string | undefined, now = new Date()): DayRange {
  const fallback = lastDays(28, now);
  const range = { from: from ?? fallback.from, to: to ?? fallback.to };
  return range.from <= range.to ? range : { from: range.to, to: range.from };
}

/** What a funnel table can be sorted by: its label, any step, or the sign-up rate. */
export type SortKey = FunnelStep | "conversion" | "label";
const SORT_KEYS = ["label", ...(Object.keys(FUNNEL_STEPS) as FunnelStep[]), "conversion"] as [SortKey, ...SortKey[]];

/** The Campaigns page's and its download's query: a range of UTC days and an order (parseFilters drops what is invalid). */
export const campaignsQuerySchema = z.object({
  from: z.preprocess(blankAsUndefined, utcDaySchema.optional()),
  to: z.preprocess(blankAsUndefined, utcDaySchema.optional()),
  sort: z.enum(SORT_KEYS).optional(),
  dir: z.enum(["asc", "desc"]).optional(),
});

/** Rows sorted by `key`: labels A to Z (or back), numbers least first (or most). */
export function sortRows<Row extends Funnel>(rows: Row[], key: SortKey, descending: boolean, labelOf: (row: Row) => string): Row[] {
  const value = (row: Row) => (key === "conversion" ? (conversion(row) ?? -1) : key === "label" ? 0 : row[key]);
  const sorted = [...rows].sort(
    (a, b) => (key === "label" ? labelOf(a).localeCompare(labelOf(b)) : value(a) - value(b)) || labelOf(a).localeCompare(labelOf(b)),
  );
  return descending ? sorted.reverse() : sorted;
}

/**
 * Sign-ups the visit counter never saw sent: more stored than counted senders. The visitor had
 * JavaScript off, blocked the counter, or sent Do Not Track or Global Privacy Control (counted as
 * events, never as visitors). At least this many; shown as a figure of its own.
 */
export function withoutCountedVisit(funnel: Funnel): number {
  return Math.max(0, funnel.stored - funnel.submitted);
}

/** What the figure withoutCountedVisit is, in one line, wherever it is shown. */
export const WITHOUT_COUNTED_VISIT_NOTE =
  "No counted visit: sign-ups from visitors the counter did not see (JavaScript off, the counter blocked, Do Not Track or Global Privacy Control). They are in “Signed up”, not in the sign-up rate.";

/**
 * The share of counted visitors who signed up, in per cent: sign-ups with a counted visit over
 * counted visitors. Null where that says nothing: no counted visitors, or (counts of different
 * days meeting) more than all of them.
 */
export function conversion(funnel: Funnel): number | null {
  if (funnel.visitors === 0) return null;
  const rate = ((funnel.stored - withoutCountedVisit(funnel)) / funnel.visitors) * 100;
  return rate > 100 ? null : rate;
}

const STEP_OF = { view: "visitors", open: "opened", submit: "submitted" } as const satisfies Record<string, FunnelStep>;

async function trafficBy(database: Database, range: DayRange, dimension: "site" | "page" | "campaign"): Promise<Map<string, Funnel>> {
  const rows = await database.trafficDay.groupBy({
    by: ["step", "value"],
    where: { dimension, day: { gte: range.from, lte: range.to } },
    _sum: { visitors: true },
  });
  const byKey = new Map<string, Funnel>();
  for (const row of rows) {
    const step = STEP_OF[row.step as keyof typeof STEP_OF];
    if (!step) continue;
    const funnel = byKey.get(row.value) ?? emptyFunnel();
    funnel[step] += row._sum.visitors ?? 0;
    byKey.set(row.value, funnel);
  }
  return byKey;
}

const SIGNUP_SUMS = { signups: true, confirmed: true, contacted48h: true, invited: true } as const;

function addSignups(
  funnel: Funnel,
  sums: { signups: number | null; confirmed: number | null; contacted48h: number | null; invited: number | null },
): void {
  funnel.stored += sums.signups ?? 0;
  funnel.confirmed += sums.confirmed ?? 0;
  funnel.contacted48h += sums.contacted48h ?? 0;
  funnel.invited += sums.invited ?? 0;
}

const hasAny = (funnel: Funnel) => Object.values(funnel).some((n) => n !== 0);

/** The whole site's funnel over the range. */
export async function siteFunnel(database: Database, range: DayRange): Promise<Funnel> {
  const [traffic, signups] = await Promise.all([
    trafficBy(database, range, "site"),
    database.signupDay.aggregate({ where: { day: { gte: range.from, lte: range.to } }, _sum: SIGNUP_SUMS }),
  ]);
  const funnel = traffic.get("") ?? emptyFunnel();
  addSignups(funnel, signups._sum);
  return funnel;
}

/** The funnel of each page (the page the form was opened and sent on, and the sign-up's source_page), most visitors first. */
export async function pageFunnels(database: Database, range: DayRange): Promise<PageFunnel[]> {
  const [traffic, signups] = await Promise.all([
    trafficBy(database, range, "page"),
    database.signupDay.groupBy({ by: ["page"], where: { day: { gte: range.from, lte: range.to } }, _sum: SIGNUP_SUMS }),
  ]);
  for (const row of signups) {
    const funnel = traffic.get(row.page) ?? emptyFunnel();
    addSignups(funnel, row._sum);
    traffic.set(row.page, funnel);
  }
  return [...traffic]
    .map(([page, funnel]) => ({ page, ...funnel }))
    .filter(hasAny)
    .sort((a, b) => b.visitors - a.visitors || b.stored - a.stored || a.page.localeCompare(b.page));
}

/** The funnel of each campaign (utm_source, utm_medium, utm_campaign; "direct"/"none" without), most visitors first. */
export async function campaignFunnels(database: Database, range: DayRange): Promise<CampaignFunnel[]> {
  const [traffic, signups] = await Promise.all([
    trafficBy(database, range, "campaign"),
    database.signupDay.groupBy({
      by: ["source", "medium", "campaign"],
      where: { day: { gte: range.from, lte: range.to } },
      _sum: SIGNUP_SUMS,
    }),
  ]);
  for (const row of signups) {
    const key = campaignKey(row.source, row.medium, row.campaign);
    const funnel = traffic.get(key) ?? emptyFunnel();
    addSignups(funnel, row._sum);
    traffic.set(key, funnel);
  }
  return [...traffic]
    .map(([key, funnel]) => ({ ...campaignOfKey(key), ...funnel }))
    .filter(hasAny)
    .sort(
      (a, b) => b.visitors - a.visitors || b.stored - a.stored || a.source.localeCompare(b.source) || a.campaign.localeCompare(b.campaign),
    );
}

/** The sites visitors came from (host only; "(direct)": no referrer), by visitors, most first. */
export async function referrers(
  database: Database,
  range: DayRange,
  limit = 10,
): Promise<{ site: string; visitors: number; views: number }[]> {
  const rows = await database.trafficDay.groupBy({
    by: ["value"],
    where: { dimension: "referrer", step: "view", day: { gte: range.from, lte: range.to } },
    _sum: { visitors: true, events: true },
  });
  return rows
    .map((row) => ({ site: row.value, visitors: row._sum.visitors ?? 0, views: row._sum.events ?? 0 }))
    .sort((a, b) => b.visitors - a.visitors || b.views - a.views || a.site.localeCompare(b.site))
    .slice(0, limit);
}

/** Page views over the range (every view, visitors under Do Not Track included). */
export async function pageViews(database: Database, range: DayRange): Promise<number> {
  const sum = await database.trafficDay.aggregate({
    where: { dimension: "site", step: "view", day: { gte: range.from, lte: range.to } },
    _sum: { events: true },
  });
  return sum._sum.events ?? 0;
}

export type VitalFigure = { p75: number; rating: Rating; samples: number } | null;
export type PageSpeed = { page: string; device: Device; metrics: Record<Metric, { last7: VitalFigure; last28: VitalFigure }> };

async function vitalCounts(database: Database, range: DayRange): Promise<Map<string, Map<number, number>>> {
  const rows = await database.vitalDay.groupBy({
    by: ["page", "device", "metric", "bucket"],
    where: { day: { gte: range.from, lte: range.to } },
    _sum: { count: true },
  });
  const counts = new Map<string, Map<number, number>>();
  for (const row of rows) {
    const key = `${row.page}|${row.device}|${row.metric}`;
    const buckets = counts.get(key) ?? new Map<number, number>();
    buckets.set(row.bucket, (buckets.get(row.bucket) ?? 0) + (row._sum.count ?? 0));
    counts.set(key, buckets);
  }
  return counts;
}

function figureOf(metric: Metric, buckets: Map<number, number> | undefined): VitalFigure {
  const p75 = buckets ? percentileOf(metric, buckets) : null;
  if (p75 === null) return null;
  return { p75, rating: ratingOf(metric, p75), samples: [...buckets!.values()].reduce((a, b) => a + b, 0) };
}

/** p75 of LCP, INP and CLS per page and device class, over the last 7 and 28 days; pages with no measurement left out. */
export async function pageSpeed(database: Database, now = new Date()): Promise<PageSpeed[]> {
  const [week, month] = await Promise.all([vitalCounts(database, lastDays(7, now)), vitalCounts(database, lastDays(28, now))]);
  const pages = [...new Set([...month.keys()].map((key) => key.split("|")[0]!))].sort();
  return pages.flatMap((page) =>
    DEVICES.map((device) => ({
      page,
      device,
      metrics: Object.fromEntries(
        METRICS.map((metric) => {
          const key = `${page}|${device}|${metric}`;
          return [metric, { last7: figureOf(metric, week.get(key)), last28: figureOf(metric, month.get(key)) }];
        }),
      ) as PageSpeed["metrics"],
    })).filter((row) => METRICS.some((metric) => row.metrics[metric].last28 !== null)),
  );
}

const FUNNEL_COLUMNS = Object.keys(FUNNEL_STEPS) as FunnelStep[];
const CSV_NAMES: Record<FunnelStep, string> = {
  visitors: "visitors",
  opened: "opened_form",
  submitted: "sent_form",
  stored: "signed_up",
  confirmed: "confirmed_email",
  contacted48h: "contacted_within_48h",
  invited: "invited",
};

const percent = (value: number | null) => (value === null ? "" : value.toFixed(1));

/** The Campaigns page's download: one row per campaign, then one per page, with the range in the first lines. */
export function funnelCsv(range: DayRange, campaigns: CampaignFunnel[], pages: PageFunnel[]): string {
  const steps = FUNNEL_COLUMNS.map((step) => CSV_NAMES[step]);
  return [
    csvRecord([
      "breakdown",
      "source",
      "medium",
      "campaign",
      "page",
      ...steps,
      "signed_up_without_counted_visit",
      "conversion_percent",
      "from",
      "to",
    ]),
    ...campaigns.map((row) =>
      csvRecord([
        "campaign",
        row.source,
        row.medium,
        row.campaign,
        "",
        ...FUNNEL_COLUMNS.map((step) => row[step]),
        withoutCountedVisit(row),
        percent(conversion(row)),
        range.from,
        range.to,
      ]),
    ),
    ...pages.map((row) =>
      csvRecord([
        "page",
        "",
        "",
        "",
        row.page,
        ...FUNNEL_COLUMNS.map((step) => row[step]),
        withoutCountedVisit(row),
        percent(conversion(row)),
        range.from,
        range.to,
      ]),
    ),
  ].join("");
}
