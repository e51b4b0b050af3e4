/**
 * What the production build in .next/ was made from: its inputs' digests and the environment its
 * pages read at build time (scripts/build/inputs.ts writes it after `npm run build`). The server
 * reads the build's SITE_URL from it, which the prerendered pages name in their canonical links,
 * Open Graph tags, sitemap and robots.txt.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

export const BUILD_RECORD = path.join(".next", "fieldcrew-build.json");

/** The SITE_URL the build in `root` was made with ("": none, so the default), or null when no record says. */
export function builtSiteUrl(root = process.cwd()): string | null {
  try {
    const record = JSON.parse(readFileSync(/*turbopackIgnore: true*/ path.join(root, BUILD_RECORD), "utf8")) as {
      env?: Record<string, unknown>;
    };
    return typeof record.env?.SITE_URL === "string" ? record.env.SITE_URL : null;
  } catch {
    return null;
  }
}
