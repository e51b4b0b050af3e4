import type { Metadata } from "next";
import { ClosingCta } from "@/components/landing/closing-cta";
import { FeaturesSection } from "@/components/landing/features-section";
import { Hero } from "@/components/landing/hero";
import { PricingSection } from "@/components/landing/pricing-section";
import { TestimonialsSection } from "@/components/landing/testimonials-section";
import { TradesStrip } from "@/components/landing/trades-strip";
import { PAGES } from "@/lib/content/pages";
import { pageMetadata } from "@/lib/content/metadata";

export const metadata: Metadata = pageMetadata(PAGES.home);

export default function HomePage() {
  return (
    <>
      <Hero />
      <TradesStrip />
      <FeaturesSection />
      <TestimonialsSection />
      <PricingSection />
      <ClosingCta />
    </>
  );
}
