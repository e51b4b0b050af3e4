import { CheckItem } from "@/components/ui/check-item";
import { SectionHeading } from "@/components/ui/section-heading";
import { JoinWaitlistButton } from "@/components/waitlist/join-waitlist-button";
import { PLANS, techniciansLabel, type Plan } from "@/lib/content/plans";
import { FIGURES } from "@/lib/content/site";

export function PricingSection() {
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="bg-white py-20 sm:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="pricing-title"
          eyebrow="Pricing"
          title="Founding members pay half, for life"
          intro={`The first ${FIGURES.foundingMemberLimit} companies on the waitlist keep ${FIGURES.foundingDiscount} off their plan for as long as they stay with us. Final prices are coming soon.`}
        />
        <ul className="mt-14 grid gap-6 lg:grid-cols-3 lg:items-start">
          {PLANS.map((plan) => (
            <PlanCard key={plan.name} plan={plan} />
          ))}
        </ul>
      </div>
    </section>
  );
}

function PlanCard({ plan }: { plan: Plan }) {
  const popular = !!plan.mostPopular;
  return (
    <li
      className={`relative flex flex-col rounded-2xl p-7 ${
        popular
          ? "bg-ink-950 text-white shadow-xl ring-2 ring-brand-400 lg:-mt-4 lg:pb-11"
          : "bg-white text-slate-900 ring-1 ring-slate-200"
      }`}
    >
      {popular && (
        <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-brand-400 px-3 py-1 text-xs font-bold tracking-wide whitespace-nowrap text-ink-950 uppercase">
          Most Popular
        </p>
      )}
      <h3 className="text-xl font-bold">{plan.name}</h3>
      <p className={`mt-2 text-sm leading-6 ${popular ? "text-slate-300" : "text-slate-600"}`}>{plan.summary}</p>

      {/* The prices are shown under a Coming Soon overlay (spec section 9). */}
      <div className="relative mt-6 overflow-hidden rounded-xl">
        <div aria-hidden="true" className={`px-4 py-5 blur-[3px] select-none ${popular ? "bg-white/5" : "bg-slate-50"}`}>
          <p className="flex items-baseline gap-2">
            <span className="text-4xl font-extrabold tracking-tight">${plan.price}</span>
            <span className={popular ? "text-slate-300" : "text-slate-600"}>/month</span>
          </p>
          <p className={`mt-1 text-sm line-through ${popular ? "text-slate-400" : "text-slate-500"}`}>${plan.regularPrice}/month</p>
        </div>
        <div className={`absolute inset-0 flex items-center justify-center ${popular ? "bg-ink-950/40" : "bg-white/40"}`}>
          <span className="rounded-full bg-ink-950 px-4 py-1.5 text-sm font-semibold text-white shadow ring-1 ring-white/20">
            Coming Soon
          </span>
        </div>
        <p className="sr-only">
          Founding-member price ${plan.price} per month, was ${plan.regularPrice} per month. Final pricing is coming soon.
        </p>
      </div>

      <p className={`mt-6 font-semibold ${popular ? "text-brand-300" : "text-brand-800"}`}>{techniciansLabel(plan)}</p>
      <ul className="mt-4 flex-1 space-y-3">
        {plan.features.map((feature) => (
          <CheckItem key={feature} onDark={popular}>
            {feature}
          </CheckItem>
        ))}
      </ul>
      <JoinWaitlistButton variant={popular ? "primary" : "outline"} className="mt-8 w-full">
        Join Waitlist
      </JoinWaitlistButton>
    </li>
  );
}
