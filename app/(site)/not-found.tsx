import { NotFoundMessage } from "@/components/site/not-found-message";

/**
 * A page of the public site that is not there, inside the site's own frame ((site)/layout.tsx).
 * Without it, this group's boundary was the root's not-found page, frame and all: a second header
 * and footer inside the first, and a copy of both in every page's hydration data (issue 41).
 */
export default function SiteNotFound() {
  return <NotFoundMessage />;
}
