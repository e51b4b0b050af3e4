import type { Metadata } from "next";
import { ConsoleFigure, ConsoleFrame, ConsoleHeading, ConsoleSection } from "@/components/operator/console-frame";
import { SignupsChart } from "@/components/operator/signups-chart";
import { hoursText, percentText, PromiseChart } from "@/components/operator/promise-chart";
import { followUpMetrics } from "@/lib/follow-up/metrics";
import { requireOperator } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";
import { CHART_DAYS, overview, SPLITS, type ChartDays, type Split } from "@/lib/console/overview";
import { listDeliveries } from "@/lib/console/queries";
import { BUSINESS_TYPES, COMPANY_SIZES } from "@/lib/content/signup-options";
import { FunnelFigures, PageSpeedTable } from "@/components/operator/funnel";
import { lastDays, pageSpeed, pageViews, siteFunnel } from "@/lib/analytics/report";
import { listUpdates, statusWord } from "@/lib/updates/updates";
import { UpdateProgressBar } from "@/components/operator/update-progress";

export const metadata: Metadata = { title: "Overview" };

type Props = { searchParams: Promise<{ days?: string; split?: string }> };

const number = (n: number) => n.toLocaleString("en-US");

export default async function OverviewPage({ searchParams }: Props) {
  const operator = await requireOperator();
  const params = await searchParams;
  const days: ChartDays = CHART_DAYS.find((d) => String(d) === params.days) ?? 30;
  const split: Split = params.split === "campaign" ? "campaign" : "source";
  const visitRange = lastDays(28);
  const [data, failed, promise, funnel, views, speed, [lastUpdate]] = await Promise.all([
    overview(getDatabase(), { days, split }),
    listDeliveries(getDatabase(), ["failed"], 10),
    followUpMetrics(getDatabase()),
    siteFunnel(getDatabase(), visitRange),
    pageViews(getDatabase(), visitRange),
    pageSpeed(getDatabase()),
    listUpdates(getDatabase(), 1),
  ]);
  const segment = new Map(data.segments.map((s) => [`${s.businessType}|${s.companySize}`, s.signups]));
  const peak = Math.max(1, ...data.segments.map((s) => s.signups));
  const share = data.total === 0 ? "–" : `${((data.confirmed / data.total) * 100).toFixed(1)}%`;
  const link = (d: ChartDays, s: Split) => `/operator/overview?days=${d}&split=${s}`;

  return (
    <ConsoleFrame operatorEmail={operator.email} role={operator.role} current="/operator/overview">
      <ConsoleHeading title="Overview">The waitlist at a glance. Times are UTC.</ConsoleHeading>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <ConsoleFigure label="All sign-ups" value={number(data.total)} />
        <ConsoleFigure label="Last 24 hours" value={number(data.last24h)} />
        <ConsoleFigure label="Last 7 days" value={number(data.last7d)} />
        <ConsoleFigure label="Confirmed their email" value={share} note={`${number(data.confirmed)} of ${number(data.total)}`} />
      </dl>

      <ConsoleSection id="funnel" title="From a visit to an invitation, last 28 days" className="mt-8">
        <p className="mt-1 mb-4 text-sm text-slate-600">
          Visitors are counted without cookies, once a day each.{" "}
          <a href="/operator/campaigns" className="font-medium underline underline-offset-2">
            Per campaign and page
          </a>
        </p>
        <FunnelFigures funnel={funnel} pageViews={views} />
      </ConsoleSection>

      <ConsoleSection id="promise" title="The 48-hour promise" className="mt-8">
        <p className="mt-1 text-sm text-slate-600">
          Of the sign-ups whose 48 hours ran out in the period: how many we reached in time, and how long the first contact took (median).
        </p>
        <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
          <ConsoleFigure
            label="Within 48 h, last 7 days"
            value={percentText(promise.last7.shareInTime)}
            note={`${number(promise.last7.inTime)} of ${number(promise.last7.due)} due`}
          />
          <ConsoleFigure
            label="Median first contact, 7 days"
            value={hoursText(promise.last7.medianHours)}
            note={`${number(promise.last7.contacted)} contacted`}
          />
          <ConsoleFigure
            label="Within 48 h, last 30 days"
            value={percentText(promise.last30.shareInTime)}
            note={`${number(promise.last30.inTime)} of ${number(promise.last30.due)} due`}
          />
          <ConsoleFigure
            label="Median first contact, 30 days"
            value={hoursText(promise.last30.medianHours)}
            note={`${number(promise.last30.contacted)} contacted`}
          />
        </dl>
        <div className="mt-6">
          <PromiseChart weeks={promise.weeks} />
        </div>
      </ConsoleSection>

      <section aria-labelledby="per-day" className="mt-8 rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="per-day" className="text-lg font-semibold text-slate-900">
            Sign-ups per day
          </h2>
          <div className="flex flex-wrap gap-2 text-sm">
            <nav aria-label="Chart range" className="flex overflow-hidden rounded-lg border border-slate-300">
              {CHART_DAYS.map((d) => (
                <a
                  key={d}
                  href={link(d, split)}
                  aria-current={d === days ? "true" : undefined}
                  className="px-3 py-1.5 text-slate-700 hover:bg-slate-100 aria-[current=true]:bg-ink-950 aria-[current=true]:text-white"
                >
                  {d} days
                </a>
              ))}
            </nav>
            <nav aria-label="Split by" className="flex overflow-hidden rounded-lg border border-slate-300">
              {(Object.keys(SPLITS) as Split[]).map((s) => (
                <a
                  key={s}
                  href={link(days, s)}
                  aria-current={s === split ? "true" : undefined}
                  className="px-3 py-1.5 text-slate-700 hover:bg-slate-100 aria-[current=true]:bg-ink-950 aria-[current=true]:text-white"
                >
                  By {SPLITS[s].toLowerCase()}
                </a>
              ))}
            </nav>
          </div>
        </div>
        <div className="mt-4">
          {data.series.length === 0 ? (
            <p className="text-slate-600">No sign-ups in the last {days} days.</p>
          ) : (
            <SignupsChart data={data} splitLabel={SPLITS[split]} />
          )}
        </div>
      </section>

      <div className="mt-8 grid gap-6 lg:grid-cols-3">
        <ConsoleSection id="segments" title="Business type × company size" className="min-w-0 overflow-x-auto lg:col-span-2">
          <table className="mt-4 w-full text-sm tabular-nums">
            <thead>
              <tr className="text-left text-slate-600">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Trade
                </th>
                {COMPANY_SIZES.map((size) => (
                  <th key={size.value} scope="col" className="px-2 py-2 text-right font-medium whitespace-nowrap">
                    {size.value}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {BUSINESS_TYPES.map((type) => (
                <tr key={type.value} className="border-t border-slate-100">
                  <th scope="row" className="py-2 pr-3 text-left font-medium whitespace-nowrap text-slate-800">
                    <a href={`/operator/entries?type=${type.value}`} className="hover:underline">
                      {type.label}
                    </a>
                  </th>
                  {COMPANY_SIZES.map((size) => {
                    const n = segment.get(`${type.value}|${size.value}`) ?? 0;
                    // The shade repeats the number, it does not replace it.
                    const shade = n === 0 ? "" : n / peak > 0.66 ? "bg-brand-300" : n / peak > 0.33 ? "bg-brand-100" : "bg-brand-50";
                    return (
                      <td key={size.value} className={`px-2 py-2 text-right ${shade}`}>
                        <a href={`/operator/entries?type=${type.value}&size=${encodeURIComponent(size.value)}`} className="hover:underline">
                          {number(n)}
                        </a>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </ConsoleSection>

        <ConsoleSection id="deliveries" title="Deliveries" className="min-w-0">
          {data.deliveries.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600">Nothing waiting and nothing failed: every email and webhook owed has gone out.</p>
          ) : (
            <table className="mt-4 w-full text-sm tabular-nums">
              <thead>
                <tr className="text-left text-slate-600">
                  <th scope="col" className="py-2 font-medium">
                    Kind
                  </th>
                  <th scope="col" className="py-2 text-right font-medium">
                    Waiting
                  </th>
                  <th scope="col" className="py-2 text-right font-medium">
                    Failed
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.deliveries.map((row) => (
                  <tr key={row.kind} className="border-t border-slate-100">
                    <th scope="row" className="py-2 text-left font-medium capitalize">
                      {row.kind}
                    </th>
                    <td className="py-2 text-right">{number(row.pending)}</td>
                    <td className={`py-2 text-right ${row.failed > 0 ? "font-semibold text-red-800" : ""}`}>{number(row.failed)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {data.sendingProblems.length > 0 && (
            <div role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
              <p className="font-semibold">The mail system is refusing our email</p>
              <ul className="mt-1 list-disc pl-5">
                {data.sendingProblems.map((problem) => (
                  <li key={problem.code}>
                    {number(problem.messages)} in the last hour: {problem.code}
                  </li>
                ))}
              </ul>
              <p className="mt-1">
                This is about how we send (the relay, a policy, the sender&apos;s address or signature), not about the recipients: no
                address was marked as bounced. Fix the sending, then send the failed emails again (npm run waitlist -- redeliver
                --all-failed).
              </p>
            </div>
          )}
          <p className="mt-3 text-sm text-slate-600">
            Addresses that bounced (no email goes to them):{" "}
            {data.mailSuppressed > 0 ? (
              <a href="/operator/entries?mail=bounced" className="font-semibold text-red-800 underline underline-offset-2">
                {number(data.mailSuppressed)}
              </a>
            ) : (
              "none"
            )}
          </p>
          {failed.length > 0 && (
            <>
              <h3 className="mt-4 text-sm font-semibold text-slate-900">Failed, oldest first</h3>
              <ul className="mt-1 space-y-1 text-sm">
                {failed.map((d) => (
                  <li key={d.id} className="truncate">
                    <a href={`/operator/entries/${d.entry.id}`} className="underline underline-offset-2">
                      {d.kind} for #{d.entry.id} {d.entry.email}
                    </a>
                  </li>
                ))}
              </ul>
            </>
          )}
          <p className="mt-3 text-xs text-slate-500">A failed delivery can be sent again from its entry&apos;s page.</p>
        </ConsoleSection>
      </div>
      <ConsoleSection id="last-update" title="The last update to the list" className="mt-8">
        {lastUpdate ? (
          <>
            <p className="mt-1 text-sm text-slate-600 wrap-anywhere">
              #{lastUpdate.id} {lastUpdate.subject}: {statusWord(lastUpdate)}, to {lastUpdate.segment}.{" "}
              <a href={`/operator/updates#update-${lastUpdate.id}`} className="font-medium text-slate-900 underline">
                All updates
              </a>
            </p>
            <div className="mt-3">
              <UpdateProgressBar update={lastUpdate} />
            </div>
          </>
        ) : (
          <p className="mt-1 text-sm text-slate-600">
            No update has been sent yet.{" "}
            <a href="/operator/updates" className="font-medium text-slate-900 underline">
              Write one
            </a>
            .
          </p>
        )}
      </ConsoleSection>
      <ConsoleSection id="speed" title="Real visitors' page speed" className="mt-8">
        <p className="mt-1 text-sm text-slate-600">
          The 75th percentile of what visitors met on each page (Core Web Vitals, measured in their browsers): 75% of visits were as fast or
          faster. Under each: its rating and how many visits it is from.
        </p>
        {speed.length === 0 ? <p className="mt-4 text-slate-600">No measurements in the last 28 days.</p> : <PageSpeedTable rows={speed} />}
      </ConsoleSection>
    </ConsoleFrame>
  );
}
