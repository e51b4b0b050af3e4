import type { MetadataRoute } from "next";
import { parseEnv } from "@/lib/env";

export default function robots(): MetadataRoute.Robots {
  return {
    // Visitors' own pages and their unsubscribe pages are reached only from their email, and say
    // noindex themselves too. The operator console is behind a sign-in and says noindex on every
    // answer as well. "Email me my link again" (/waitlist/link) is a public page, in the sitemap.
    rules: { userAgent: "*", allow: "/", disallow: ["/api/", "/waitlist/entry/", "/waitlist/unsubscribe/", "/operator"] },
    sitemap: new URL("/sitemap.xml", parseEnv().SITE_URL).toString(),
  };
}
