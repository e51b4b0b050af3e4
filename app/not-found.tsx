import type { Metadata } from "next";
import { NotFoundMessage } from "@/components/site/not-found-message";
import { SiteChrome } from "@/components/site/site-chrome";

export const metadata: Metadata = {
  title: { absolute: "Page not found | FieldCrew" },
  robots: { index: false },
};

export default function NotFound() {
  // Outside the (site) group, so it brings the site's frame itself.
  return (
    <SiteChrome>
      <NotFoundMessage />
    </SiteChrome>
  );
}
