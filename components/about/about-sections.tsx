import { SectionHeading } from "@/components/ui/section-heading";
import { FOUNDERS, MISSION, STORY, VALUES, type Value } from "@/lib/content/about";

/** Each value's Lucide icon, drawn by the stylesheet as its tile's ::before (.icon-before in globals.css). */
const VALUE_ICONS: Record<Value["title"], string> = {
  "Service First": "icon-heart-handshake",
  Simplicity: "icon-sparkles",
  Authenticity: "icon-handshake",
};

export function OurStory() {
  return (
    <section aria-labelledby="story-title" className="bg-white py-20 sm:py-24">
      <div className="mx-auto max-w-3xl px-4 sm:px-6">
        <SectionHeading id="story-title" eyebrow="Our story" title={STORY.heading} align="left" />
        <div className="mt-8 space-y-5 text-lg leading-8 text-slate-700">
          {STORY.paragraphs.map((paragraph) => (
            <p key={paragraph.slice(0, 24)}>{paragraph}</p>
          ))}
        </div>
      </div>
    </section>
  );
}

export function Values() {
  return (
    <section aria-labelledby="values-title" className="bg-slate-50 py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading id="values-title" eyebrow="Our values" title="What we hold ourselves to" />
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {VALUES.map((value) => (
            <li key={value.title} className="rounded-2xl bg-white p-7 ring-1 ring-slate-200">
              <span
                className={`icon-before ${VALUE_ICONS[value.title]} flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700`}
              />
              <h3 className="mt-5 text-lg font-semibold text-slate-900">{value.title}</h3>
              <p className="mt-2 leading-7 text-slate-600">{value.description}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

export function Founders() {
  return (
    <section aria-labelledby="founders-title" className="bg-white py-20 sm:py-24">
      <div className="mx-auto max-w-5xl px-4 sm:px-6">
        <SectionHeading id="founders-title" eyebrow="Founders" title="The people behind FieldCrew" />
        <ul className="mt-12 grid gap-6 md:grid-cols-2">
          {FOUNDERS.map((founder) => (
            <li key={founder.name} className="flex flex-col gap-5 rounded-2xl p-7 ring-1 ring-slate-200 sm:flex-row">
              <span
                aria-hidden="true"
                className="flex size-20 shrink-0 items-center justify-center rounded-2xl bg-ink-950 text-2xl font-bold text-brand-400"
              >
                {founder.initials}
              </span>
              <div>
                <h3 className="text-lg font-semibold text-slate-900">{founder.name}</h3>
                <p className="text-sm font-medium text-brand-800">{founder.role}</p>
                <p className="mt-3 leading-7 text-slate-600">{founder.bio}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

export function Mission() {
  return (
    <section aria-labelledby="mission-title" className="bg-ink-950 py-20 text-white sm:py-24">
      <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
        <h2 id="mission-title" className="text-sm font-semibold tracking-wide text-brand-300 uppercase">
          {MISSION.heading}
        </h2>
        <p className="mt-5 text-2xl leading-10 font-semibold text-balance sm:text-3xl sm:leading-[1.4]">{MISSION.statement}</p>
      </div>
    </section>
  );
}
