import { buttonClasses } from "@/components/ui/button-styles";
import { DIRECT_SOURCE, MIN_SEARCH_LENGTH, type ListQuery } from "@/lib/console/list";
import { BUSINESS_TYPES, COMPANY_SIZES } from "@/lib/content/signup-options";
import { FilterSelect } from "@/components/operator/filter-select";

const field = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-2.5 py-2 text-sm";
const label = "block text-sm font-medium text-slate-700";

/** The list's filters: a GET form, so a filtered list is a link (and works without JavaScript). */
export function EntryFilters({ query, sources }: { query: ListQuery; sources: string[] }) {
  return (
    <form
      method="get"
      action="/operator/entries"
      role="search"
      aria-label="Filter sign-ups"
      className="rounded-xl border border-slate-200 bg-white p-4"
    >
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-5">
        <div className="col-span-2">
          <label htmlFor="q" className={label}>
            Search
          </label>
          <input
            id="q"
            name="q"
            type="search"
            minLength={MIN_SEARCH_LENGTH}
            defaultValue={query.q}
            placeholder="Name, company or email"
            className={field}
          />
        </div>
        <FilterSelect name="type" label="Trade" value={query.type} options={BUSINESS_TYPES} />
        <FilterSelect name="size" label="Size" value={query.size} options={COMPANY_SIZES} />
        <FilterSelect
          name="source"
          label="Source"
          value={query.source}
          options={[DIRECT_SOURCE, ...sources.filter((s) => s !== DIRECT_SOURCE)].map((s) => ({ value: s, label: s }))}
        />
        <FilterSelect
          name="confirmed"
          label="Confirmed"
          value={query.confirmed}
          options={[
            { value: "yes", label: "Yes" },
            { value: "no", label: "Not yet" },
          ]}
        />
        <FilterSelect
          name="mail"
          label="Email"
          value={query.mail}
          options={[
            { value: "bounced", label: "Bounced" },
            { value: "unsubscribed", label: "Unsubscribed" },
          ]}
        />
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
