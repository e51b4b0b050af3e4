import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading } from "@/components/operator/console-frame";
import { EntryFilters } from "@/components/operator/entry-filters";
import { buttonClasses } from "@/components/ui/button-styles";
import { requireOperator } from "@/lib/auth/session";
import { isFreshSignIn, may } from "@/lib/auth/roles";
import { FreshSignInNotice } from "@/components/operator/fresh-sign-in-notice";
import { getDatabase } from "@/lib/db";
import { FILTER_KEYS, hasFilters, listPage, parseListQuery, queryString, type ListQuery } from "@/lib/console/list";
import { displayValue } from "@/lib/waitlist/fields";
import { momentIn } from "@/lib/console/time-format";
import { consoleTimeZone } from "@/lib/console/time-zone";

export const metadata: Metadata = { title: "Entries" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** After a removal (lib/console/routes.ts): which entry went, or that it was already gone. */
function removalNote(removed: string | string[] | undefined): string | undefined {
  if (typeof removed !== "string") return undefined;
  return removed === "none" ? "That entry was already gone; nothing was removed." : `Entry #${removed} was removed from the waitlist.`;
}

export default async function EntriesPage({ searchParams }: Props) {
  const operator = await requireOperator();
  const params = await searchParams;
  const { query, problems } = parseListQuery(params);
  const removed = removalNote(params.removed);
  const database = getDatabase();
  const [page, sources, { zone }] = await Promise.all([
    listPage(database, query),
    database.signupDay.findMany({ distinct: ["source"], select: { source: true }, orderBy: { source: "asc" } }),
    consoleTimeZone(operator.id),
  ]);
  const when = momentIn(zone);
  const filters: Partial<ListQuery> = Object.fromEntries(FILTER_KEYS.map((key) => [key, query[key]]));
  const filtered = hasFilters(query);

  return (
    <ConsoleFrame operatorEmail={operator.email} role={operator.role} current="/operator/entries">
      <ConsoleHeading title="Entries">Newest first. Times are {zone}; the date filters are UTC days.</ConsoleHeading>
      {removed && (
        <p role="status" className="mb-4 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900">
          {removed}
        </p>
      )}
      <EntryFilters query={query} sources={sources.map((s) => s.source)} />
      {problems.length > 0 && (
        <p role="alert" className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          Some filters were ignored: {problems.join("; ")}
        </p>
      )}
      <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600">{filtered ? "Sign-ups matching your filters" : "Every sign-up"}</p>
        {may(operator.role, "export") && isFreshSignIn(operator) && (
          <div className="flex gap-2">
            <a
              href={`/api/operator/export${queryString({ ...filters, format: "csv" })}`}
              className={buttonClasses("outline", "sm")}
              download
            >
              Download CSV
            </a>
            <a
              href={`/api/operator/export${queryString({ ...filters, format: "json" })}`}
              className={buttonClasses("outline", "sm")}
              download
            >
              Download JSON
            </a>
          </div>
        )}
      </div>
      {/* Not fresh: a download link would save the step-up page as the file, so the notice stands in for the buttons. */}
      {may(operator.role, "export") && (
        <FreshSignInNotice session={operator} returnTo={`/operator/entries${queryString(filters)}`} what="Downloading the list" />
      )}

      {page.entries.length === 0 ? (
        <p className="mt-6 rounded-xl border border-slate-200 bg-white p-6 text-slate-600">
          {filtered ? "No sign-ups match these filters." : "No sign-ups yet. They will appear here as people join the waitlist."}
        </p>
      ) : (
        <div className="mt-3 overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full text-sm">
            <thead className="bg-slate-50 text-left text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2.5 font-medium whitespace-nowrap">
                  Signed up
                </th>
                <th scope="col" className="px-3 py-2.5 font-medium">
                  Contact
                </th>
                <th scope="col" className="hidden px-3 py-2.5 font-medium sm:table-cell">
                  Company
                </th>
                <th scope="col" className="hidden px-3 py-2.5 font-medium md:table-cell">
                  Trade
                </th>
                <th scope="col" className="hidden px-3 py-2.5 font-medium md:table-cell">
                  Size
                </th>
                <th scope="col" className="hidden px-3 py-2.5 font-medium lg:table-cell">
                  Source
                </th>
                <th scope="col" className="px-3 py-2.5 font-medium">
                  Confirmed
                </th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((entry) => (
                <tr key={entry.id} className="border-t border-slate-100 hover:bg-slate-50">
                  <td className="px-3 py-2.5 whitespace-nowrap text-slate-600 tabular-nums">{when(entry.created_at)}</td>
                  <td className="px-3 py-2.5">
                    <a href={`/operator/entries/${entry.id}`} className="font-medium text-slate-900 underline-offset-2 hover:underline">
                      {entry.contact_name}
                    </a>
                    <div className="text-xs text-slate-700 sm:hidden">{entry.company_name}</div>
                    <div className="max-w-[16rem] truncate text-xs text-slate-500">{entry.email}</div>
                  </td>
                  <td className="hidden px-3 py-2.5 text-slate-800 sm:table-cell">{entry.company_name}</td>
                  <td className="hidden px-3 py-2.5 whitespace-nowrap md:table-cell">
                    {displayValue("business_type", entry.business_type)}
                  </td>
                  <td className="hidden px-3 py-2.5 whitespace-nowrap md:table-cell">{entry.company_size}</td>
                  <td className="hidden px-3 py-2.5 text-slate-600 lg:table-cell">{entry.utm_source ?? "direct"}</td>
                  <td className="px-3 py-2.5 whitespace-nowrap">
                    {entry.confirmed_at ? "Yes" : <span className="text-slate-500">Not yet</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav aria-label="Pages" className="mt-4 flex justify-between">
        {page.newer ? (
          <a href={`/operator/entries${queryString({ ...filters, before: page.newer })}`} className={buttonClasses("outline", "sm")}>
            ← Newer
          </a>
        ) : (
          <span />
        )}
        {page.older && (
          <a href={`/operator/entries${queryString({ ...filters, after: page.older })}`} className={buttonClasses("outline", "sm")}>
            Older →
          </a>
        )}
      </nav>
    </ConsoleFrame>
  );
}
