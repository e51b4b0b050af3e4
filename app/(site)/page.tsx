import type { Metadata } from "next";
import { ClosingCta } from "@/components/landing/closing-cta";
import { FeaturesSection } from "@/components/landing/features-section";
import { Hero } from "@/components/landing/hero";
import { PricingSection } from "@/components/landing/pricing-section";
import { TestimonialsSection } from "@/components/landing/testimonials-section";
import { TradesStrip } from "@/components/landing/trades-strip";
import { PAGES } from "@/lib/content/pages";
import { pageMetadata } from "@/lib/content/metadata";
import { organization, webSite } from "@/lib/content/structured-data";
import { JsonLd } from "@/components/site/json-ld";
import { parseEnv } from "@/lib/env";

export const metadata: Metadata = pageMetadata(PAGES.home);

export default function HomePage() {
  const siteUrl = parseEnv().SITE_URL;
  return (
    <>
      <JsonLd data={organization(siteUrl)} />
      <JsonLd data={webSite(siteUrl)} />
      <Hero />
      <TradesStrip />
      <FeaturesSection />
      <TestimonialsSection />
      <PricingSection />
      <ClosingCta />
    </>
  );
}
