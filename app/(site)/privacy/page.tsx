import type { Metadata } from "next";
import { connection } from "next/server";
import { PageIntro } from "@/components/site/page-intro";
import { PAGES } from "@/lib/content/pages";
import { LINK_AGAIN_PATH } from "@/lib/content/paths";
import { PRIVACY_NOTICE_VERSION, privacyNotice } from "@/lib/content/privacy";
import { SITE } from "@/lib/content/site";
import { parseEnv } from "@/lib/env";
import { pageMetadata } from "@/lib/content/metadata";

export const metadata: Metadata = pageMetadata(PAGES.privacy);

/** The privacy notice. Made per request: how long entries are kept is this site's setting (WAITLIST_RETENTION_DAYS), read at run time. */
export default async function PrivacyPage() {
  await connection();
  const sections = privacyNotice(parseEnv().WAITLIST_RETENTION_DAYS, SITE.contactEmail);
  return (
    <>
      <PageIntro
        eyebrow="Privacy"
        title="Privacy notice"
        intro="What we keep when you join the FieldCrew waitlist, why, who sees it, how long we keep it, and how to see, take or delete it."
      />
      <article className="bg-white py-14 sm:py-20">
        <div className="mx-auto max-w-3xl space-y-10 px-4 sm:px-6">
          {sections.map((section) => (
            <section key={section.heading} aria-labelledby={headingId(section.heading)}>
              <h2 id={headingId(section.heading)} className="text-2xl font-bold tracking-tight text-slate-900">
                {section.heading}
              </h2>
              {section.paragraphs.map((paragraph) => (
                <p key={paragraph} className="mt-4 text-lg leading-8 text-slate-700">
                  {paragraph}
                </p>
              ))}
            </section>
          ))}
          <p className="border-t border-slate-200 pt-6 text-sm text-slate-600">
            Version {PRIVACY_NOTICE_VERSION}. Each entry records the version it joined under. Lost your link?{" "}
            <a href={LINK_AGAIN_PATH} className="font-medium text-brand-800 underline underline-offset-2 hover:text-slate-900">
              Email me my link again
            </a>
            .
          </p>
        </div>
      </article>
    </>
  );
}

function headingId(heading: string): string {
  return heading.toLowerCase().replace(/[^a-z]+/g, "-");
}
