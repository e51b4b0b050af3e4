import type { MetadataRoute } from "next";
import { PAGES } from "@/lib/content/pages";
import { parseEnv } from "@/lib/env";

export default function sitemap(): MetadataRoute.Sitemap {
  const base = parseEnv().SITE_URL;
  return Object.values(PAGES).map((page) => ({
    url: new URL(page.path, base).toString(),
    changeFrequency: "monthly",
    priority: page.path === "/" ? 1 : 0.6,
  }));
}
