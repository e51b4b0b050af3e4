/** `stats`: the totals, the breakdowns, the refused addresses and the funnel, as text tables. ./cli.ts dispatches to it. */
import "server-only";
import { parseArgs } from "node:util";
import type { Database } from "../db";
import { refusalCounts, type RefusalCounts } from "../waitlist/refusals";
import { BUSINESS_TYPES, COMPANY_SIZES } from "../content/signup-options";
import { UsageError, write, type CliIo } from "./io";
import { utcDaySchema } from "../filters";
import {
  campaignFunnels,
  conversion,
  FUNNEL_STEPS,
  pageFunnels,
  pageViews,
  rangeOf,
  siteFunnel,
  WITHOUT_COUNTED_VISIT_NOTE,
  withoutCountedVisit,
  type DayRange,
  type Funnel,
  type FunnelStep,
} from "../analytics/report";
import { count, renderTable, type Column } from "../console/format";
import { stats } from "../console/queries";
import { utcDay } from "../time";

/** The width of a breakdown's bar at 100%, in characters. */
const BAR_WIDTH = 30;

function breakdown(title: string, rows: { label: string; n: number }[], total: number): string {
  const columns: Column<{ label: string; n: number }>[] = [
    { title, width: 24, value: (row) => row.label },
    { title: "Sign-ups", width: 8, value: (row) => count(row.n), alignRight: true },
    { title: "Share", width: 6, value: (row) => `${((row.n / total) * 100).toFixed(1)}%`, alignRight: true },
  ];
  return renderTable(columns, rows);
}

/** Why an address was refused, in the operator's words. */
const REFUSAL_REASONS: Record<string, string> = {
  disposable: "throwaway domain",
  denied: "denied domain",
  already_registered: "already on the list",
};
const reasonOf = (reason: string) => REFUSAL_REASONS[reason] ?? reason;

/** How many sign-ups were refused because of their address in the last 30 days, why, and the domains most refused. */
function refusalsSection(refused: RefusalCounts): string {
  if (refused.byReason.length === 0) return "Refused addresses, last 30 days: none";
  const total = refused.byReason.reduce((n, row) => n + row.n, 0);
  const reasons = renderTable<{ reason: string; n: number }>(
    [
      { title: "Refused addresses, last 30 days", width: 44, value: (row) => row.reason },
      { title: "Count", width: 7, value: (row) => count(row.n), alignRight: true },
    ],
    [...refused.byReason.map((row) => ({ reason: reasonOf(row.reason), n: row.n })), { reason: "In all", n: total }],
  );
  const domains = renderTable<RefusalCounts["topDomains"][number]>(
    [
      { title: "Domains refused most", width: 32, value: (row) => row.domain },
      { title: "Why", width: 20, value: (row) => reasonOf(row.reason) },
      { title: "Count", width: 7, value: (row) => count(row.n), alignRight: true },
    ],
    refused.topDomains,
  );
  const denied = refused.byReason.some((row) => row.reason === "denied") ? "\n(denied domain: in WAITLIST_EMAIL_DOMAINS_DENY)" : "";
  return `${reasons}\n\n${domains}${denied}`;
}

/** The funnel from a visit to an invitation over `range`: the site's, then per campaign and per page. */
async function funnelSection(db: Database, range: DayRange): Promise<string> {
  const [site, views, campaigns, pages] = await Promise.all([
    siteFunnel(db, range),
    pageViews(db, range),
    campaignFunnels(db, range),
    pageFunnels(db, range),
  ]);
  const steps = Object.keys(FUNNEL_STEPS) as FunnelStep[];
  const share = (funnel: Funnel) => {
    const value = conversion(funnel);
    return value === null ? "–" : `${value.toFixed(1)}%`;
  };
  const figures = <Row extends Funnel>(): Column<Row>[] => [
    ...steps.map((step) => ({
      title: FUNNEL_STEPS[step],
      width: Math.max(8, FUNNEL_STEPS[step].length),
      value: (row: Row) => count(row[step]),
      alignRight: true,
    })),
    { title: "No counted visit", width: 16, value: (row: Row) => count(withoutCountedVisit(row)), alignRight: true },
    { title: "Sign-up rate", width: 12, value: (row: Row) => share(row), alignRight: true },
  ];
  const heading = `Visits and the funnel, ${range.from} to ${range.to} (UTC; visitors once a day each, no cookies)`;
  if (views === 0 && site.stored === 0)
    return `${heading}
No visits or sign-ups in this range.`;
  return [
    `${heading}
Page views: ${count(views)}
` + renderTable(figures<Funnel>(), [site]),
    renderTable(
      [
        { title: "Source", width: 14, value: (row: (typeof campaigns)[number]) => row.source },
        { title: "Medium", width: 10, value: (row) => row.medium },
        { title: "Campaign", width: 16, value: (row) => row.campaign },
        ...figures<(typeof campaigns)[number]>(),
      ],
      campaigns,
    ),
    renderTable(
      [
        { title: "Page", width: 16, value: (row: (typeof pages)[number]) => (row.page === "" ? "(not recorded)" : row.page) },
        ...figures<(typeof pages)[number]>(),
      ],
      pages,
    ),
    ...([site, ...campaigns, ...pages].some((funnel) => withoutCountedVisit(funnel) > 0) ? [WITHOUT_COUNTED_VISIT_NOTE] : []),
  ].join("\n\n");
}

export async function statsCommand(db: Database, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { from: { type: "string" }, to: { type: "string" } } });
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && !utcDaySchema.safeParse(value).success)
      throw new UsageError(`--${name} must be a day such as 2026-11-01 (YYYY-MM-DD, UTC)`);
  }
  const funnel = await funnelSection(db, rangeOf(values.from, values.to));
  const s = await stats(db);
  if (s.total === 0) {
    await write(io.stdout, `No sign-ups yet. Stats will appear here as people join the waitlist.\n\n${funnel}\n`);
    return 0;
  }
  const refused = await refusalCounts(db, s.perDay[0]!.day);
  const counted = (rows: { key: string | null; n: number }[]) => new Map(rows.map((row) => [row.key, row.n]));
  const types = counted(s.byBusinessType);
  const sizes = counted(s.byCompanySize);
  const unknown = (key: string | null) => (key === null ? "(not recorded)" : key);
  const peak = Math.max(1, ...s.perDay.map((day) => day.n));

  const sections = [
    `Sign-ups: ${count(s.total)} (first ${utcDay(s.first!)}, latest ${utcDay(s.latest!)}, UTC)\n` +
      `Confirmed their email: ${count(s.confirmed)} (${((s.confirmed / s.total) * 100).toFixed(1)}%)\n` +
      `Removed: ${count(s.removedByVisitors)} by the visitor, ${count(s.removedByOperators)} by an operator` +
      (s.removedByRetention > 0 ? `, ${count(s.removedByRetention)} past the retention period` : "") +
      ` (counts only; nothing about them is kept)` +
      (s.duplicates > 0 ? `\nDuplicates kept from before one mailbox meant one entry: ${count(s.duplicates)} (see duplicates)` : "") +
      `\nGetting no email: ${count(s.mailSuppressed)} bounced (mail unsuppress lifts one), ${count(s.unsubscribed)} unsubscribed`,
    breakdown(
      "Business type",
      BUSINESS_TYPES.map((o) => ({ label: o.label, n: types.get(o.value) ?? 0 })),
      s.total,
    ),
    breakdown(
      "Company size",
      COMPANY_SIZES.map((o) => ({ label: o.label, n: sizes.get(o.value) ?? 0 })),
      s.total,
    ),
    breakdown(
      "Source (utm_source)",
      s.bySource.map((row) => ({ label: unknown(row.key), n: row.n })),
      s.total,
    ),
    breakdown(
      "Page",
      s.byPage.map((row) => ({ label: unknown(row.key), n: row.n })),
      s.total,
    ),
    refusalsSection(refused),
    funnel,
    [
      "Last 30 days (UTC)",
      ...s.perDay.map(({ day, n }) => `${day}  ${String(n).padStart(5)}  ${"█".repeat(Math.round((n / peak) * BAR_WIDTH))}`.trimEnd()),
    ].join("\n"),
  ];
  await write(io.stdout, `${sections.join("\n\n")}\n`);
  return 0;
}
