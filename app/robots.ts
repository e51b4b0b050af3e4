import type { MetadataRoute } from "next";
import { parseEnv } from "@/lib/env";

export default function robots(): MetadataRoute.Robots {
  return {
    rules: { userAgent: "*", allow: "/", disallow: "/api/" },
    sitemap: new URL("/sitemap.xml", parseEnv().SITE_URL).toString(),
  };
}
