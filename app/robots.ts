import type { MetadataRoute } from "next";
import { parseEnv } from "@/lib/env";

export default function robots(): MetadataRoute.Robots {
  return {
    // Visitors' own pages are reached only from their email, and say noindex themselves too.
    rules: { userAgent: "*", allow: "/", disallow: ["/api/", "/waitlist/"] },
    sitemap: new URL("/sitemap.xml", parseEnv().SITE_URL).toString(),
  };
}
