/**
 * Bundle benchmark: gzip bytes of JavaScript a modern browser downloads for
 * each page's first view, beside the hello-world page of the same Next.js, and
 * of the waitlist dialog, which is loaded on first use (not in the first view).
 *
 *   npm run bench:bundle        (builds the site and the fixture first)
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { pageWeight, type PageWeight } from "./support/page-weight";
import { buildHelloWorld, ensureBuild, freshDatabase, startHelloWorld, startSiteServer } from "./support/site-server";

const SITE_PORT = 3241;
const HELLO_PORT = 3242;
const kB = (bytes: number) => (bytes / 1000).toFixed(1);

ensureBuild(true);
buildHelloWorld();
const site = await startSiteServer({ port: SITE_PORT, databaseFile: freshDatabase("bench-bundle") });
const hello = await startHelloWorld(HELLO_PORT);
try {
  const floor = await pageWeight(hello.url, "/");
  const rows: (PageWeight & { site: string })[] = [{ ...floor, site: "hello-world" }];
  for (const path of ["/", "/about", "/careers"]) rows.push({ ...(await pageWeight(site.url, path)), site: "site" });

  console.log("\nJavaScript a modern browser downloads for the first view (gzip), next to the hello-world page\n");
  console.log("page              scripts   JS kB   x hello-world   CSS kB   HTML kB");
  for (const row of rows) {
    const name = row.site === "hello-world" ? "hello-world /" : row.path;
    console.log(
      `${name.padEnd(16)}  ${String(row.scripts).padStart(7)}  ${kB(row.jsGzipBytes).padStart(6)}  ${(row.jsGzipBytes / floor.jsGzipBytes).toFixed(3).padStart(14)}  ${kB(row.cssGzipBytes).padStart(7)}  ${kB(row.htmlGzipBytes).padStart(8)}`,
    );
  }

  // The dialog's chunk is the one holding its submit button's words.
  const chunksDir = path.join(".next", "static", "chunks");
  const dialogChunks = readdirSync(chunksDir)
    .filter((file) => file.endsWith(".js"))
    .map((file) => readFileSync(path.join(chunksDir, file)))
    .filter((code) => code.includes("Secure My Spot"));
  const dialogBytes = dialogChunks.reduce((sum, code) => sum + gzipSync(code).length, 0);
  console.log(`\nThe waitlist dialog, loaded on first use: ${dialogChunks.length} chunk${dialogChunks.length === 1 ? "" : "s"}, ${kB(dialogBytes)} kB gzip`);
} finally {
  await Promise.all([site.stop(), hello.stop()]);
}
