import { CheckItem } from "@/components/ui/check-item";
import { SectionHeading } from "@/components/ui/section-heading";
import { FEATURES, type FeatureIcon } from "@/lib/content/features";

/**
 * Each feature's Lucide icon, drawn by the stylesheet as its tile's ::before (.icon-before in
 * globals.css; the icon-<name> utilities come from components/ui/lucide-masks.mjs). An svg here
 * was 31 elements and 4 KB of the page's markup and hydration data (issue 41). Whole class names,
 * so that Tailwind finds them in this file.
 */
const ICONS: Record<FeatureIcon, string> = {
  calendar: "icon-calendar-check",
  receipt: "icon-receipt-text",
  bell: "icon-bell-ring",
  users: "icon-users",
  chart: "icon-chart-column-increasing",
  clock: "icon-clock",
};

export function FeaturesSection() {
  return (
    <section id="features" aria-labelledby="features-title" className="bg-white py-20 sm:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="features-title"
          eyebrow="Features"
          title="Everything between the phone call and the payment"
          intro="Six tools that work together, so the office, the trucks and the books always agree."
        />
        <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="rounded-2xl border border-slate-200 bg-slate-50/60 p-6 transition-shadow hover:shadow-md">
              <span
                className={`icon-before ${ICONS[feature.icon]} flex size-11 items-center justify-center rounded-xl bg-ink-950 text-brand-400`}
              />
              <h3 className="mt-5 text-lg font-semibold text-slate-900">{feature.title}</h3>
              <p className="mt-2 leading-7 text-slate-600">{feature.description}</p>
              <ul className="mt-4 space-y-2">
                {feature.points.map((point) => (
                  <CheckItem key={point}>{point}</CheckItem>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
