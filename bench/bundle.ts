/**
 * Bundle benchmark: gzip bytes of JavaScript a modern browser downloads for
 * each page's first view, beside the hello-world page of the same Next.js.
 *
 *   npm run bench:bundle        (builds the site and the fixture first)
 */
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
} finally {
  await Promise.all([site.stop(), hello.stop()]);
}
