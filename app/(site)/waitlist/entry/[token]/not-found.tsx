import { InvalidEntryLink } from "@/components/waitlist-entry/invalid-entry-link";

/**
 * A link the site did not sign, with JavaScript or in development. A production server answers
 * such a link before Next, with the prerendered page of ../not-valid (lib/site/invalid-entry-link.ts).
 */
export default function InvalidEntryLinkNotFound() {
  return <InvalidEntryLink />;
}
