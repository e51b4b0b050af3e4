import { InvalidEntryLink } from "@/components/waitlist-entry/invalid-entry-link";

/**
 * A link the site did not sign, in development (or from a build without ../not-valid). A production
 * server answers such a link before Next, with that prerendered page (lib/site/invalid-entry-link.ts).
 */
export default function InvalidEntryLinkNotFound() {
  return <InvalidEntryLink />;
}
