import "server-only";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { contentSecurityPolicy, inlineScriptHashes } from "./headers";

export type PagePolicies = {
  /** The Content-Security-Policy for a response to `pathname`. */
  forPath(pathname: string): string;
  /** How many prerendered pages the policies were made from (0 in development). */
  pageCount: number;
};

/** "index.html" -> "/", "about.html" -> "/about"; Next's own error pages have no path of their own. */
function pathnameOf(htmlFile: string): string | undefined {
  const name = htmlFile.replace(/\.html$/, "");
  if (name.startsWith("_")) return undefined;
  return name === "index" ? "/" : `/${name}`;
}

/**
 * The policy for the build's hashed script and style files. A policy governs the
 * document it arrives with, never a script or stylesheet a page loads, so these
 * files need none of the pages' script hashes. Sending the pages' policy with each
 * of them cost about 1.1 kB of headers per file, 6-7 kB per page load
 * (docs/performance.md); this one still locks down a file opened on its own.
 */
const BUILD_FILE_POLICY = "default-src 'none'; frame-ancestors 'none'";
const BUILD_FILES = "/_next/static/";

/**
 * Reads the prerendered pages of a production build and makes each page a
 * policy that allows exactly its own inline scripts. The build's files get
 * BUILD_FILE_POLICY. Any other path (a 404, an API answer, the icon) gets the
 * policy that allows the inline scripts of every page, since which page Next
 * will answer with is only known afterwards.
 */
export function loadPagePolicies(distDir: string): PagePolicies {
  const appDir = path.join(distDir, "server", "app");
  const byPath = new Map<string, string>();
  const allHashes = new Set<string>();
  const htmlFiles = readdirSync(appDir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".html"));
  for (const file of htmlFiles) {
    const hashes = inlineScriptHashes(readFileSync(path.join(appDir, file), "utf8"));
    hashes.forEach((hash) => allHashes.add(hash));
    const pathname = pathnameOf(file.split(path.sep).join("/"));
    if (pathname) byPath.set(pathname, contentSecurityPolicy({ scriptHashes: hashes }));
  }
  const fallback = contentSecurityPolicy({ scriptHashes: [...allHashes] });
  return {
    forPath: (pathname) =>
      pathname.startsWith(BUILD_FILES)
        ? BUILD_FILE_POLICY
        : (byPath.get(pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname) ?? fallback),
    pageCount: byPath.size,
  };
}

/** Development renders on request, so there is nothing to hash: a looser policy that Next's dev tools can run under. */
export function developmentPolicies(): PagePolicies {
  const policy = contentSecurityPolicy({ scriptHashes: [] }, true);
  return { forPath: () => policy, pageCount: 0 };
}
