import { ArrowRight } from "lucide";
import { BrandGlow } from "@/components/ui/brand-glow";
import { buttonClasses } from "@/components/ui/button-styles";
import { Icon } from "@/components/ui/icon";
import { JoinWaitlistButton } from "@/components/waitlist/join-waitlist-button";
import { FIGURES } from "@/lib/content/site";

const PROMISES = [
  `${FIGURES.foundingDiscount} off for life`,
  `Limited to ${FIGURES.foundingMemberLimit} founding members`,
  "No credit card to join",
];

export function Hero() {
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden bg-ink-950 text-white">
      <BrandGlow withCoolCorner />
      {/* Top-aligned, with the card set down by a fixed margin, rather than centred: the browser may
          paint the page before it has parsed the whole card, and a centred card would move up as its
          last rows arrive (issue 41, a layout shift of 0.29 on a slow machine). */}
      <div className="relative mx-auto grid max-w-6xl grid-cols-1 items-start gap-12 px-4 pt-14 pb-20 sm:px-6 md:pt-20 md:pb-28 lg:grid-cols-[1.15fr_1fr]">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-brand-400/40 bg-brand-400/10 px-3 py-1 text-sm font-medium text-brand-100">
            <span aria-hidden="true" className="size-2 rounded-full bg-brand-400" />
            Only {FIGURES.spotsLeft.hero} spots left this month
          </p>
          <h1 id="hero-title" className="mt-6 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl">
            Run your whole service business from one app
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-8 text-pretty text-slate-300">
            Schedule and dispatch jobs, invoice and get paid on site, and keep every customer in one place. Built for HVAC, plumbing,
            electrical, general contractors, landscaping and every trade in between.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <JoinWaitlistButton size="lg">
              Join the Waitlist
              <Icon node={ArrowRight} className="size-5" />
            </JoinWaitlistButton>
            <a href="#features" className={buttonClasses("ghostOnDark", "lg")}>
              See what it does
            </a>
          </div>
          <p className="mt-6 text-slate-300">
            <strong className="font-semibold text-white">{FIGURES.companiesWaiting} companies waiting</strong> for early access.
          </p>
          <ul className="mt-4 flex flex-col gap-2 text-sm text-slate-300 sm:flex-row sm:flex-wrap sm:gap-x-6">
            {PROMISES.map((promise) => (
              // The check mark is the stylesheet's, as in every list of checks (components/ui/check-item.tsx).
              <li key={promise} className="check-item check-item-on-dark flex gap-2">
                {promise}
              </li>
            ))}
          </ul>
        </div>

        <HeroCard />
      </div>
    </section>
  );
}

/** A glimpse of the product's day view, drawn in HTML so it is sharp and weighs nothing. */
function HeroCard() {
  const jobs = [
    { time: "8:00", title: "AC tune-up", who: "Carlos", status: "Done", tone: "bg-emerald-400/15 text-emerald-300" },
    { time: "10:30", title: "Water heater install", who: "Jenna", status: "On the way", tone: "bg-sky-400/15 text-sky-300" },
    { time: "1:00", title: "Panel upgrade quote", who: "Dev", status: "Scheduled", tone: "bg-white/10 text-slate-300" },
  ];
  return (
    <div className="rounded-2xl border border-white/10 bg-white/5 p-5 shadow-2xl ring-1 ring-white/5 sm:p-6 lg:mt-20">
      <div className="flex items-center justify-between">
        <p className="font-semibold">Today&apos;s jobs</p>
        <p className="text-sm text-slate-400">3 techs · 3 jobs</p>
      </div>
      <ul className="mt-4 space-y-3">
        {jobs.map((job) => (
          <li key={job.time} className="flex items-center gap-4 rounded-xl bg-ink-950/60 p-3.5">
            <span className="w-12 text-sm font-semibold tabular-nums text-slate-300">{job.time}</span>
            <span className="min-w-0 flex-1">
              <span className="block truncate font-medium">{job.title}</span>
              <span className="block text-sm text-slate-400">{job.who}</span>
            </span>
            <span className={`rounded-full px-2.5 py-1 text-xs font-medium whitespace-nowrap ${job.tone}`}>{job.status}</span>
          </li>
        ))}
      </ul>
      <div className="mt-4 grid grid-cols-2 gap-3">
        <div className="rounded-xl bg-ink-950/60 p-3.5">
          <p className="text-sm text-slate-400">Paid today</p>
          <p className="mt-1 text-xl font-bold tabular-nums">$2,840</p>
        </div>
        <div className="rounded-xl bg-ink-950/60 p-3.5">
          <p className="text-sm text-slate-400">Unpaid invoices</p>
          <p className="mt-1 text-xl font-bold tabular-nums">0</p>
        </div>
      </div>
    </div>
  );
}
