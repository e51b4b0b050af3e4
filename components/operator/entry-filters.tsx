import { buttonClasses } from "@/components/ui/button-styles";
import { DIRECT_SOURCE, MIN_SEARCH_LENGTH, type ListQuery } from "@/lib/operator/list";
import { BUSINESS_TYPES, COMPANY_SIZES } from "@/lib/waitlist/options";

const field = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-2.5 py-2 text-sm";
const label = "block text-sm font-medium text-slate-700";

/** The list's filters: a GET form, so a filtered list is a link (and works without JavaScript). */
export function EntryFilters({ query, sources }: { query: ListQuery; sources: string[] }) {
  return (
    <form method="get" action="/operator/entries" role="search" aria-label="Filter sign-ups" className="rounded-xl border border-slate-200 bg-white p-4">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4 lg:grid-cols-8">
        <div className="col-span-2">
          <label htmlFor="q" className={label}>
            Search
          </label>
          <input id="q" name="q" type="search" minLength={MIN_SEARCH_LENGTH} defaultValue={query.q} placeholder="Name, company or email" className={field} />
        </div>
        <div>
          <label htmlFor="type" className={label}>
            Trade
          </label>
          <select id="type" name="type" defaultValue={query.type ?? ""} className={field}>
            <option value="">Any</option>
            {BUSINESS_TYPES.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="size" className={label}>
            Size
          </label>
          <select id="size" name="size" defaultValue={query.size ?? ""} className={field}>
            <option value="">Any</option>
            {COMPANY_SIZES.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="source" className={label}>
            Source
          </label>
          <select id="source" name="source" defaultValue={query.source ?? ""} className={field}>
            <option value="">Any</option>
            {[DIRECT_SOURCE, ...sources.filter((s) => s !== DIRECT_SOURCE)].map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="confirmed" className={label}>
            Confirmed
          </label>
          <select id="confirmed" name="confirmed" defaultValue={query.confirmed ?? ""} className={field}>
            <option value="">Any</option>
            <option value="yes">Yes</option>
            <option value="no">Not yet</option>
          </select>
        </div>
        <div>
          <label htmlFor="from" className={label}>
            From
          </label>
          <input id="from" name="from" type="date" defaultValue={query.from} className={field} />
        </div>
        <div>
          <label htmlFor="to" className={label}>
            To
          </label>
          <input id="to" name="to" type="date" defaultValue={query.to} className={field} />
        </div>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="submit" className={buttonClasses("dark", "sm")}>
          Apply filters
        </button>
        <a href="/operator/entries" className={buttonClasses("outline", "sm")}>
          Clear
        </a>
      </div>
    </form>
  );
}
