import type { ReactNode } from "react";
import {
  conversion,
  FUNNEL_STEPS,
  WITHOUT_COUNTED_VISIT_NOTE,
  withoutCountedVisit,
  type Funnel,
  type FunnelStep,
  type PageSpeed,
  type SortKey,
} from "@/lib/analytics/report";
import { count as number } from "@/lib/console/format";
import { METRIC_INFO, METRICS, metricText, RATING_LABELS, type Rating } from "@/lib/analytics/vitals";
import { ConsoleFigure } from "./console-frame";

const percentText = (value: number | null) => (value === null ? "–" : `${value.toFixed(1)}%`);

/** What each figure's note compares it with: the step it follows from (the later steps are shares of the sign-ups). */
const SHARE_OF: Partial<Record<FunnelStep, { of: FunnelStep; words: string }>> = {
  opened: { of: "visitors", words: "of visitors" },
  submitted: { of: "opened", words: "of those who opened it" },
  confirmed: { of: "stored", words: "of sign-ups" },
  contacted48h: { of: "stored", words: "of sign-ups" },
  invited: { of: "stored", words: "of sign-ups" },
};

/** The site's funnel as a row of figures, each with its share of what it follows from. */
export function FunnelFigures({ funnel, pageViews }: { funnel: Funnel; pageViews: number }) {
  const steps = Object.keys(FUNNEL_STEPS) as FunnelStep[];
  const uncounted = withoutCountedVisit(funnel);
  // Sign-ups: their rate among counted visitors, and those the counter did not see, apart.
  const signedUpNote =
    [
      conversion(funnel) === null ? null : `${percentText(conversion(funnel))} of visitors`,
      uncounted > 0 ? `${number(uncounted)} without a counted visit` : null,
    ]
      .filter(Boolean)
      .join(" · ") || "–";
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 xl:grid-cols-7">
        {steps.map((step) => {
          const share = SHARE_OF[step];
          const base = share ? funnel[share.of] : 0;
          const note =
            step === "stored"
              ? signedUpNote
              : !share
                ? `${number(pageViews)} page views`
                : base > 0
                  ? `${((funnel[step] / base) * 100).toFixed(1)}% ${share.words}`
                  : "–";
          return <ConsoleFigure key={step} label={FUNNEL_STEPS[step]} value={number(funnel[step])} note={note} />;
        })}
      </dl>
      {uncounted > 0 && <p className="mt-2 text-xs text-slate-600">{WITHOUT_COUNTED_VISIT_NOTE}</p>}
    </>
  );
}

/** The tables' column headings: short, so seven figures fit beside the label. */
const SHORT_TITLES: Record<FunnelStep, string> = {
  visitors: "Visitors",
  opened: "Opened",
  submitted: "Sent",
  stored: "Signed up",
  confirmed: "Confirmed",
  contacted48h: "Contacted ≤ 48 h",
  invited: "Invited",
};

/**
 * A funnel per row (a campaign, a page), its column headings links that sort by that column
 * (`sortHref`; a second click turns the order round), the order told to assistive technology
 * with aria-sort. Plain links: sorting works without JavaScript.
 */
export function FunnelTable<Row extends Funnel>({
  caption,
  labelTitle,
  label,
  rows,
  rowKey,
  sort,
  sortHref,
}: {
  caption: string;
  labelTitle: string;
  label: (row: Row) => ReactNode;
  rows: Row[];
  rowKey: (row: Row) => string;
  sort?: { key: SortKey; descending: boolean };
  sortHref?: (key: SortKey, descending: boolean) => string;
}) {
  const steps = Object.keys(FUNNEL_STEPS) as FunnelStep[];
  const heading = (key: SortKey, title: string, fullTitle: string) => {
    const active = sort?.key === key;
    // Numbers start most first, labels A to Z; the active column's next click turns it round.
    const nextDescending = active ? !sort.descending : key !== "label";
    return (
      <th
        key={key}
        scope="col"
        title={fullTitle}
        aria-sort={active ? (sort.descending ? "descending" : "ascending") : undefined}
        className={`px-2 py-2 font-medium whitespace-nowrap ${key === "label" ? "text-left" : "text-right"}`}
      >
        {sortHref ? (
          <a href={sortHref(key, nextDescending)} className="hover:underline">
            {title}
            {active && <span aria-hidden="true">{sort.descending ? " ↓" : " ↑"}</span>}
          </a>
        ) : (
          title
        )}
      </th>
    );
  };
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="w-full text-sm tabular-nums">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="align-bottom text-slate-600">
            {heading("label", labelTitle, labelTitle)}
            {steps.map((step) => heading(step, SHORT_TITLES[step], FUNNEL_STEPS[step]))}
            <th scope="col" title={WITHOUT_COUNTED_VISIT_NOTE} className="px-2 py-2 text-right font-medium whitespace-nowrap">
              No counted visit
            </th>
            {heading("conversion", "Sign-up rate", "Signed up with a counted visit, of visitors")}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className="border-t border-slate-100">
              <th scope="row" className="max-w-48 min-w-36 px-2 py-2 text-left font-medium break-words text-slate-800">
                {label(row)}
              </th>
              {steps.map((step) => (
                <td key={step} className="px-2 py-2 text-right">
                  {number(row[step])}
                </td>
              ))}
              <td className="px-2 py-2 text-right">{number(withoutCountedVisit(row))}</td>
              <td className="px-2 py-2 text-right font-semibold">{percentText(conversion(row))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const RATING_STYLE: Record<Rating, string> = {
  good: "bg-emerald-50 text-emerald-900",
  "needs-improvement": "bg-amber-50 text-amber-900",
  poor: "bg-red-50 text-red-900",
};

function SpeedCell({
  figure,
  metric,
}: {
  figure: PageSpeed["metrics"][keyof PageSpeed["metrics"]]["last7"];
  metric: keyof typeof METRIC_INFO;
}) {
  if (!figure) return <td className="px-2 py-2 text-right text-slate-400">–</td>;
  return (
    <td className={`px-2 py-2 text-right ${RATING_STYLE[figure.rating]}`}>
      <span className="font-semibold">{metricText(metric, figure.p75)}</span>
      <span className="block text-xs">
        {RATING_LABELS[figure.rating]} · {number(figure.samples)}
      </span>
    </td>
  );
}

/** p75 per page and device, 7 and 28 days, each against the good / needs-improvement / poor thresholds. */
export function PageSpeedTable({ rows }: { rows: PageSpeed[] }) {
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="w-full text-sm tabular-nums">
        <caption className="sr-only">
          The 75th percentile of each metric per page and device, over the last 7 and 28 days, with its rating and how many visits it is
          from
        </caption>
        <thead>
          <tr className="text-slate-600">
            <th scope="col" rowSpan={2} className="px-2 py-2 text-left font-medium">
              Page
            </th>
            <th scope="col" rowSpan={2} className="px-2 py-2 text-left font-medium">
              Device
            </th>
            {METRICS.map((metric) => (
              <th key={metric} scope="colgroup" colSpan={2} className="px-2 pt-2 text-center font-medium" title={METRIC_INFO[metric].name}>
                {metric} <span className="font-normal text-slate-500">(good ≤ {metricText(metric, METRIC_INFO[metric].good)})</span>
              </th>
            ))}
          </tr>
          <tr className="text-xs text-slate-500">
            {METRICS.flatMap((metric) => [
              <th key={`${metric}-7`} scope="col" className="px-2 pb-2 text-right font-normal">
                7 days
              </th>,
              <th key={`${metric}-28`} scope="col" className="px-2 pb-2 text-right font-normal">
                28 days
              </th>,
            ])}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.page}|${row.device}`} className="border-t border-slate-100">
              <th scope="row" className="px-2 py-2 text-left font-medium whitespace-nowrap text-slate-800">
                {row.page}
              </th>
              <td className="px-2 py-2 capitalize">{row.device}</td>
              {METRICS.flatMap((metric) => [
                <SpeedCell key={`${metric}-7`} figure={row.metrics[metric].last7} metric={metric} />,
                <SpeedCell key={`${metric}-28`} figure={row.metrics[metric].last28} metric={metric} />,
              ])}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "(not recorded)" for a sign-up's page that was not recorded (entries from before pages were). */
export function pageLabel(page: string): string {
  return page === "" ? "(not recorded)" : page;
}
