import type { Metadata } from "next";
import { Founders, Mission, OurStory, Values } from "@/components/about/about-sections";
import { PageIntro } from "@/components/site/page-intro";
import { WaitlistBand } from "@/components/site/waitlist-band";
import { PAGES } from "@/lib/content/pages";
import { pageMetadata } from "@/lib/content/metadata";

export const metadata: Metadata = pageMetadata(PAGES.about);

export default function AboutPage() {
  return (
    <>
      <PageIntro
        eyebrow="About us"
        title="We're building the app we wished our own shops had"
        intro="FieldCrew is made by a small team of tradespeople and software builders who think running a service business should be about the work, not the paperwork."
      />
      <OurStory />
      <Values />
      <Founders />
      <Mission />
      <WaitlistBand title="Want to build it with us?" text="Join the waitlist and help shape FieldCrew from the first day." />
    </>
  );
}
