/**
 * Bundle benchmark: gzip bytes of JavaScript a modern browser downloads for
 * each page's first view, beside the hello-world page of the same Next.js, and
 * of the waitlist dialog, which is loaded on first use (not in the first view): what Chromium
 * fetches between the home page's first view and the dialog on screen.
 *
 *   npm run bench:bundle        (builds the site and the fixture first)
 */
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../e2e/support/browser";
import { pageWeight, type PageWeight } from "./support/page-weight";
import { buildHelloWorld, ensureBuild, freshDatabase, startHelloWorld, startSiteServer } from "./support/site-server";

/** Scripts fetched by opening the dialog from the home page's header, gzip-compressed as served. */
async function dialogWeight(baseUrl: string): Promise<{ scripts: number; jsGzipBytes: number }> {
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage();
    const scripts = new Set<string>();
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") scripts.add(response.url());
    });
    await page.goto(`${baseUrl}/`, { waitUntil: "networkidle" });
    const firstView = new Set(scripts);
    // Once the page's script has run, the header's Join link says it opens the dialog (until then it goes to the join page).
    const join = page.getByRole("banner").locator('[aria-haspopup="dialog"]').filter({ hasText: "Join Waitlist" });
    await join.click();
    await page.getByRole("dialog").getByRole("button", { name: "Secure My Spot" }).waitFor();
    const added = [...scripts].filter((url) => !firstView.has(url));
    const sizes = await Promise.all(added.map(async (url) => gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer())).length));
    return { scripts: added.length, jsGzipBytes: sizes.reduce((sum, size) => sum + size, 0) };
  } finally {
    await browser.close();
  }
}

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
  for (const path of ["/", "/about", "/careers", "/join"]) rows.push({ ...(await pageWeight(site.url, path)), site: "site" });

  console.log("\nJavaScript a modern browser downloads for the first view (gzip), next to the hello-world page\n");
  console.log("page              scripts   JS kB   x hello-world   CSS kB   HTML kB");
  for (const row of rows) {
    const name = row.site === "hello-world" ? "hello-world /" : row.path;
    console.log(
      `${name.padEnd(16)}  ${String(row.scripts).padStart(7)}  ${kB(row.jsGzipBytes).padStart(6)}  ${(row.jsGzipBytes / floor.jsGzipBytes).toFixed(3).padStart(14)}  ${kB(row.cssGzipBytes).padStart(7)}  ${kB(row.htmlGzipBytes).padStart(8)}`,
    );
  }

  // The dialog's code, as a browser fetches it: every script that arrives between a page's first
  // view and the dialog on screen (however the build splits it into chunks, and whatever chunk it
  // shares with the join page).
  const dialog = await dialogWeight(site.url);
  console.log(
    `\nThe waitlist dialog, loaded on first use: ${dialog.scripts} script${dialog.scripts === 1 ? "" : "s"}, ${kB(dialog.jsGzipBytes)} kB gzip`,
  );
} finally {
  await Promise.all([site.stop(), hello.stop()]);
}
