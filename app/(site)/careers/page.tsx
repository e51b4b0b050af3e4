import type { Metadata } from "next";
import { JobCard } from "@/components/careers/job-card";
import { PageIntro } from "@/components/site/page-intro";
import { WaitlistBand } from "@/components/site/waitlist-band";
import { SectionHeading } from "@/components/ui/section-heading";
import { HOW_TO_APPLY, JOBS } from "@/lib/content/careers";
import { PAGES } from "@/lib/content/pages";
import { pageMetadata } from "@/lib/content/metadata";
import { jobPosting } from "@/lib/content/structured-data";
import { JsonLd } from "@/components/site/json-ld";
import { parseEnv } from "@/lib/env";

export const metadata: Metadata = pageMetadata(PAGES.careers);

export default function CareersPage() {
  const siteUrl = parseEnv().SITE_URL;
  return (
    <>
      {JOBS.map((job) => (
        <JsonLd key={job.id} data={jobPosting(job, siteUrl)} />
      ))}
      <PageIntro
        eyebrow="Careers"
        title="Help the trades run better"
        intro="We're a small, remote team building software for people who fix, build and maintain things for a living. If that matters to you, we'd like to meet you."
      />

      <section aria-labelledby="positions-title" className="bg-slate-50 py-20 sm:py-24">
        <div className="mx-auto max-w-5xl px-4 sm:px-6">
          <SectionHeading
            id="positions-title"
            eyebrow="Open positions"
            title={`${JOBS.length} roles, all remote and full-time`}
            intro="Applications open soon. Read on, and check back when the buttons light up."
          />
          <ul className="mt-12 space-y-6">
            {JOBS.map((job) => (
              <li key={job.id}>
                <JobCard job={job} />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="apply-title" className="bg-white py-20 sm:py-24">
        <div className="mx-auto max-w-5xl px-4 sm:px-6">
          <SectionHeading id="apply-title" eyebrow="How to apply" title="Three steps, no runaround" />
          <ol className="mt-12 grid gap-6 md:grid-cols-3">
            {HOW_TO_APPLY.map((step, index) => (
              <li key={step.title} className="rounded-2xl p-7 ring-1 ring-slate-200">
                <span
                  aria-hidden="true"
                  className="flex size-10 items-center justify-center rounded-full bg-ink-950 font-bold text-brand-400"
                >
                  {index + 1}
                </span>
                <h3 className="mt-5 text-lg font-semibold text-slate-900">
                  <span className="sr-only">Step {index + 1}: </span>
                  {step.title}
                </h3>
                <p className="mt-2 leading-7 text-slate-600">{step.description}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <WaitlistBand
        title="Run a service business?"
        text="FieldCrew opens to founding members first. Join the waitlist and we'll reach out personally."
      />
    </>
  );
}
