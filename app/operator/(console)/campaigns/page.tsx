import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading, ConsoleSection } from "@/components/operator/console-frame";
import { FunnelFigures, FunnelTable, pageLabel } from "@/components/operator/funnel";
import { buttonClasses } from "@/components/ui/button-styles";
import { requireOperator } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";
import {
  campaignFunnels,
  campaignsQuerySchema,
  lastDays,
  pageFunnels,
  pageViews,
  rangeOf,
  referrers,
  siteFunnel,
  sortRows,
  type CampaignFunnel,
  type DayRange,
  type SortKey,
} from "@/lib/analytics/report";
import { count as number } from "@/lib/console/format";
import { parseFilters } from "@/lib/filters";

export const metadata: Metadata = { title: "Campaigns" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const QUICK_RANGES = [7, 28, 90] as const;

function rangeQuery(range: DayRange, extra: Record<string, string> = {}): string {
  return new URLSearchParams({ from: range.from, to: range.to, ...extra }).toString();
}

const campaignLabel = (row: CampaignFunnel) => `${row.campaign} ${row.source} ${row.medium}`;

export default async function CampaignsPage({ searchParams }: Props) {
  const operator = await requireOperator();
  const { query } = parseFilters(campaignsQuerySchema, await searchParams);
  const range = rangeOf(query.from, query.to);
  const sortKey: SortKey = query.sort ?? "visitors";
  const descending = query.dir !== "asc";
  const database = getDatabase();
  const [site, views, campaigns, pages, sites] = await Promise.all([
    siteFunnel(database, range),
    pageViews(database, range),
    campaignFunnels(database, range),
    pageFunnels(database, range),
    referrers(database, range),
  ]);
  const sortHref = (key: SortKey, nextDescending: boolean) =>
    `/operator/campaigns?${rangeQuery(range, { sort: key, dir: nextDescending ? "desc" : "asc" })}#campaigns`;

  return (
    <ConsoleFrame operatorEmail={operator.email} role={operator.role} current="/operator/campaigns">
      <ConsoleHeading title="Campaigns">
        Which pages and campaigns bring the companies we call, from the visit to the invitation. Days are UTC; visitors are counted without
        cookies, once a day each.
      </ConsoleHeading>

      <form
        method="get"
        action="/operator/campaigns"
        className="flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4"
      >
        <label className="text-sm font-medium text-slate-700">
          From
          <input type="date" name="from" defaultValue={range.from} className="mt-1 block rounded-lg border border-slate-300 px-3 py-1.5" />
        </label>
        <label className="text-sm font-medium text-slate-700">
          To
          <input type="date" name="to" defaultValue={range.to} className="mt-1 block rounded-lg border border-slate-300 px-3 py-1.5" />
        </label>
        <input type="hidden" name="sort" value={sortKey} />
        <input type="hidden" name="dir" value={descending ? "desc" : "asc"} />
        <button type="submit" className={buttonClasses("dark", "sm")}>
          Show
        </button>
        <nav aria-label="Quick ranges" className="flex overflow-hidden rounded-lg border border-slate-300 text-sm">
          {QUICK_RANGES.map((days) => {
            const quick = lastDays(days);
            const current = quick.from === range.from && quick.to === range.to;
            return (
              <a
                key={days}
                href={`/operator/campaigns?${rangeQuery(quick)}`}
                aria-current={current ? "true" : undefined}
                className="px-3 py-1.5 text-slate-700 hover:bg-slate-100 aria-[current=true]:bg-ink-950 aria-[current=true]:text-white"
              >
                {days} days
              </a>
            );
          })}
        </nav>
        <a href={`/api/operator/campaigns?${rangeQuery(range)}`} className={`${buttonClasses("outline", "sm")} sm:ml-auto`}>
          Download CSV
        </a>
      </form>

      <section aria-labelledby="site-funnel" className="mt-6">
        <h2 id="site-funnel" className="mb-3 text-lg font-semibold text-slate-900">
          The whole site, {range.from} to {range.to}
        </h2>
        <FunnelFigures funnel={site} pageViews={views} />
      </section>

      <ConsoleSection id="campaigns" title="By campaign" className="mt-8">
        <p className="mt-1 text-sm text-slate-600">
          The utm_campaign of the link a visit landed with, and under it its utm_source · utm_medium (&ldquo;none&rdquo; and
          &ldquo;direct&rdquo; where it had none). Select a heading to sort by it; hover it for its full name.
        </p>
        {campaigns.length === 0 ? (
          <p className="mt-4 text-slate-600">No visits or sign-ups in this range.</p>
        ) : (
          <FunnelTable
            caption={`The funnel of each campaign, ${range.from} to ${range.to}`}
            labelTitle="Campaign"
            label={(row) => (
              <>
                {row.campaign}
                <span className="block text-xs font-normal text-slate-500">
                  {row.source} · {row.medium}
                </span>
              </>
            )}
            rows={sortRows(campaigns, sortKey, descending, campaignLabel)}
            rowKey={campaignLabel}
            sort={{ key: sortKey, descending }}
            sortHref={sortHref}
          />
        )}
      </ConsoleSection>

      <ConsoleSection id="pages" title="By page" className="mt-8">
        <p className="mt-1 text-sm text-slate-600">Where the form was opened and sent, and the page a sign-up came from.</p>
        {pages.length === 0 ? (
          <p className="mt-4 text-slate-600">No visits or sign-ups in this range.</p>
        ) : (
          <FunnelTable
            caption={`The funnel of each page, ${range.from} to ${range.to}`}
            labelTitle="Page"
            label={(row) => pageLabel(row.page)}
            rows={pages}
            rowKey={(row) => row.page}
          />
        )}
      </ConsoleSection>

      <ConsoleSection id="referrers" title="Referring sites" className="mt-8 max-w-xl">
        {sites.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">No visits in this range.</p>
        ) : (
          <table className="mt-4 w-full text-sm tabular-nums">
            <caption className="sr-only">The sites visitors came from</caption>
            <thead>
              <tr className="text-left text-slate-600">
                <th scope="col" className="py-2 font-medium">
                  Site
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Visitors
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Views
                </th>
              </tr>
            </thead>
            <tbody>
              {sites.map((row) => (
                <tr key={row.site} className="border-t border-slate-100">
                  <th scope="row" className="max-w-40 truncate py-2 text-left font-medium">
                    {row.site}
                  </th>
                  <td className="py-2 text-right">{number(row.visitors)}</td>
                  <td className="py-2 text-right">{number(row.views)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="mt-3 text-xs text-slate-500">Only the site&apos;s name is kept, never the page or link.</p>
      </ConsoleSection>
    </ConsoleFrame>
  );
}
