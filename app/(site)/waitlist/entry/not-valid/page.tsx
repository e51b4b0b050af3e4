import type { Metadata } from "next";
import { InvalidEntryLink } from "@/components/waitlist-entry/invalid-entry-link";

export const metadata: Metadata = {
  title: { absolute: "This link is not valid | FieldCrew" },
  robots: { index: false, follow: false },
};

/**
 * The refusal of a visitor's link the site did not sign, prerendered, so that it is whole HTML:
 * the server sends it, with a 404, for any such link (lib/site/invalid-entry-link.ts). Next.js 16
 * renders a per-request page's notFound() only in its hydration data, a blank page without
 * JavaScript (vercel/next.js#62228).
 */
export default function InvalidEntryLinkPage() {
  return <InvalidEntryLink />;
}
