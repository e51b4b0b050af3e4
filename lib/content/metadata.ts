import type { Metadata } from "next";
import type { PageInfo } from "./pages";
import { SITE } from "./site";

/** Title, description, canonical URL and Open Graph tags for one page. */
export function pageMetadata(page: PageInfo): Metadata {
  return {
    title: { absolute: page.title },
    description: page.description,
    alternates: { canonical: page.path },
    openGraph: {
      type: "website",
      siteName: SITE.name,
      locale: "en_US",
      url: page.path,
      title: page.title,
      description: page.description,
    },
    twitter: { card: "summary_large_image", title: page.title, description: page.description },
  };
}
