/**
 * The console's overview: totals, sign-ups per day split by source or campaign,
 * business type × company size, and delivery health. Read from the summary
 * tables the database keeps up to date by trigger (signup_days, signup_segments),
 * so it costs the same at a hundred rows as at a million (bench/operator.ts).
 */
import "server-only";
import type { Database } from "../db";
import { utcDay } from "../time";
import { sendingProblems } from "../waitlist/bounces";

export const CHART_DAYS = [30, 90] as const;
export type ChartDays = (typeof CHART_DAYS)[number];
export const SPLITS = { source: "Source", campaign: "Campaign" } as const;
export type Split = keyof typeof SPLITS;
/** More series than this are summed into "other": a chart of twenty colours reads as none. */
const MAX_SERIES = 5;
const OTHER_SERIES = "other";

export type Overview = {
  total: number;
  last24h: number;
  last7d: number;
  confirmed: number;
  /** Oldest first, every day of the range (days without sign-ups too). */
  days: string[];
  /** Each series' sign-ups per day, in `days` order; the biggest series first. */
  series: { key: string; perDay: number[]; total: number }[];
  segments: { businessType: string; companySize: string; signups: number }[];
  deliveries: { kind: string; pending: number; failed: number }[];
  /** Entries whose address bounced: no email goes to them (lib/waitlist/bounces.ts). */
  mailSuppressed: number;
  /** Bursts of one refusal by the mail system in the last hour that are not about a mailbox: a sending problem. */
  sendingProblems: { code: string; messages: number }[];
};

export async function overview(database: Database, options: { days: ChartDays; split: Split }, now = new Date()): Promise<Overview> {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (options.days - 1)));
  const days = Array.from({ length: options.days }, (_, i) => utcDay(new Date(first.getTime() + i * 86_400_000)));
  const column = options.split === "source" ? "source" : "campaign";
  const [totals, last24h, last7d, perDay, segments, deliveries, mailSuppressed, refused] = await Promise.all([
    database.signupDay.aggregate({ _sum: { signups: true, confirmed: true } }),
    database.waitlistEntry.count({ where: { createdAt: { gte: new Date(now.getTime() - 86_400_000) } } }),
    database.waitlistEntry.count({ where: { createdAt: { gte: new Date(now.getTime() - 7 * 86_400_000) } } }),
    database.signupDay.groupBy({ by: ["day", column], where: { day: { gte: days[0] } }, _sum: { signups: true } }),
    database.signupSegment.findMany({ where: { signups: { gt: 0 } }, orderBy: [{ businessType: "asc" }, { companySize: "asc" }] }),
    database.outboxMessage.groupBy({ by: ["kind", "status"], where: { status: { in: ["pending", "failed"] } }, _count: { _all: true } }),
    database.waitlistEntry.count({ where: { mailSuppressedAt: { not: null } } }),
    sendingProblems(database, now),
  ]);

  const byKey = new Map<string, Map<string, number>>();
  for (const row of perDay) {
    const key = (row as Record<string, unknown>)[column] as string;
    const counts = byKey.get(key) ?? new Map<string, number>();
    counts.set(row.day, (counts.get(row.day) ?? 0) + (row._sum.signups ?? 0));
    byKey.set(key, counts);
  }
  const ranked = [...byKey]
    .map(([key, counts]) => ({ key, perDay: days.map((day) => counts.get(day) ?? 0) }))
    .map((series) => ({ ...series, total: series.perDay.reduce((a, b) => a + b, 0) }))
    .filter((series) => series.total > 0)
    .sort((a, b) => b.total - a.total || a.key.localeCompare(b.key));
  const series = ranked.slice(0, MAX_SERIES);
  const rest = ranked.slice(MAX_SERIES);
  if (rest.length > 0) {
    const perDayRest = days.map((_, i) => rest.reduce((sum, s) => sum + s.perDay[i]!, 0));
    series.push({ key: OTHER_SERIES, perDay: perDayRest, total: perDayRest.reduce((a, b) => a + b, 0) });
  }

  const kinds = [...new Set(deliveries.map((row) => row.kind))].sort();
  const countOf = (kind: string, status: string) => deliveries.find((row) => row.kind === kind && row.status === status)?._count._all ?? 0;
  return {
    total: totals._sum.signups ?? 0,
    confirmed: totals._sum.confirmed ?? 0,
    last24h,
    last7d,
    days,
    series,
    segments,
    deliveries: kinds.map((kind) => ({ kind, pending: countOf(kind, "pending"), failed: countOf(kind, "failed") })),
    mailSuppressed,
    sendingProblems: refused,
  };
}
