import { JoinWaitlistButton } from "@/components/waitlist/join-waitlist-button";
import { FIGURES } from "@/lib/content/site";

const STATS = [
  { value: String(FIGURES.companiesSecured), label: "companies secured" },
  { value: FIGURES.foundingDiscount, label: "off for life" },
  { value: `${FIGURES.responseHours} hours`, label: "average response" },
];

export function ClosingCta() {
  return (
    <section aria-labelledby="closing-title" className="bg-ink-950 py-20 text-white sm:py-24">
      <div className="mx-auto max-w-4xl px-4 text-center sm:px-6">
        <p className="inline-flex items-center gap-2 rounded-full bg-brand-400 px-3 py-1 text-sm font-semibold text-ink-950">
          Only {FIGURES.spotsLeft.closing} spots left this month
        </p>
        <h2 id="closing-title" className="mt-6 text-3xl font-bold tracking-tight text-balance sm:text-5xl">
          Claim your founding-member spot
        </h2>
        <p className="mx-auto mt-5 max-w-2xl text-lg leading-8 text-pretty text-slate-300">
          Founding membership is limited to {FIGURES.foundingMemberLimit} companies. Join the waitlist in two minutes and we&apos;ll set you
          up personally before we open to everyone.
        </p>
        <ul className="mx-auto mt-10 grid max-w-2xl grid-cols-3 gap-3 sm:gap-4">
          {STATS.map((stat) => (
            <li key={stat.label} className="rounded-xl bg-white/5 px-2 py-4 ring-1 ring-white/10">
              <span className="block text-2xl font-bold text-white sm:text-3xl">{stat.value}</span>{" "}
              <span className="mt-1 block text-xs text-slate-300 sm:text-sm">{stat.label}</span>
            </li>
          ))}
        </ul>
        <div className="mt-10">
          <JoinWaitlistButton size="lg">Join the Waitlist</JoinWaitlistButton>
        </div>
      </div>
    </section>
  );
}
