import { TRADES_SERVED } from "@/lib/content/site";

/** Who it is for, right under the hero. */
export function TradesStrip() {
  return (
    <section aria-label="Trades we serve" className="border-b border-slate-200 bg-white py-8">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <p className="text-center text-sm font-medium text-slate-600">Made for the people who keep homes and businesses running</p>
        <ul className="mt-4 flex flex-wrap justify-center gap-2">
          {TRADES_SERVED.map((trade) => (
            <li key={trade} className="rounded-full border border-slate-200 px-3.5 py-1.5 text-sm font-medium text-slate-700">
              {trade}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
