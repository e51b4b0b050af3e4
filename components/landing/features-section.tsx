import { BellRing, CalendarCheck, ChartColumnIncreasing, Clock, ReceiptText, Users, type IconNode } from "lucide";
import { CheckItem } from "@/components/ui/check-item";
import { Icon } from "@/components/ui/icon";
import { SectionHeading } from "@/components/ui/section-heading";
import { FEATURES, type FeatureIcon } from "@/lib/content/features";

const ICONS: Record<FeatureIcon, IconNode> = {
  calendar: CalendarCheck,
  receipt: ReceiptText,
  bell: BellRing,
  users: Users,
  chart: ChartColumnIncreasing,
  clock: Clock,
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
              <span className="flex size-11 items-center justify-center rounded-xl bg-ink-950 text-brand-400">
                <Icon node={ICONS[feature.icon]} className="size-6" />
              </span>
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
