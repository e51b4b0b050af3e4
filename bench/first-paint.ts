/**
 * How often Chromium holds a page's first paint back past its load event when the page is opened
 * in a new tab (docs/performance.md, "A first paint held back a second in a new tab", issue 41):
 * the frame is painted and committed, then not shown for about a second. Lighthouse records such
 * a load, and Lantern turns it into a far worse LCP and score, so bench:pages counts those runs
 * too; this measures the stall itself, faster and in many more loads.
 *
 *   npm run bench:first-paint     20 loads of each page and of hello-world, alternating
 *                                 (FIRST_PAINT_LOADS sets the number; HEADED=1 runs Chromium
 *                                 with a window, e.g. under xvfb-run)
 *
 * Chromium is launched by chrome-launcher, as Lighthouse launches it: Playwright's own launch
 * turns Paint Holding off, and with it off the stall did not happen. Each load is a new browser
 * context (a new tab, first visit), at Lighthouse's phone size.
 */
import * as chromeLauncher from "chrome-launcher";
import { chromium } from "@playwright/test";
import { CHROMIUM_FLAGS, chromiumPath } from "../e2e/support/browser";
import { median } from "./support/median";
import { benchedPages, buildHelloWorld, ensureBuild, freshDatabase, startHelloWorld, startSiteServer } from "./support/site-server";

const LOADS = Number(process.env.FIRST_PAINT_LOADS ?? 20);

const started = performance.now();
ensureBuild(true);
buildHelloWorld();
const site = await startSiteServer({ port: 3265, databaseFile: freshDatabase("bench-first-paint") });
const hello = await startHelloWorld(3266);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? chromiumPath() ?? "/usr/bin/chromium",
  chromeFlags: [...(process.env.HEADED ? [] : ["--headless=new"]), ...CHROMIUM_FLAGS],
});
const targets = benchedPages(site.url, hello.url);
const loads = new Map<string, { firstPaint: number; load: number }[]>(targets.map((target) => [target.name, []]));

try {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  for (let round = 1; round <= LOADS; round += 1) {
    for (const target of targets) {
      const context = await browser.newContext({
        viewport: { width: 412, height: 823 },
        deviceScaleFactor: 1.75,
        isMobile: true,
        hasTouch: true,
      });
      const page = await context.newPage();
      await page.goto(target.url, { waitUntil: "load" });
      // A held-back paint comes 1-2 s after navigation, after the load event: wait for it.
      await page.waitForFunction(() => performance.getEntriesByName("first-paint").length > 0, undefined, { timeout: 10_000 });
      loads.get(target.name)!.push(
        await page.evaluate(() => ({
          firstPaint: performance.getEntriesByName("first-paint")[0]!.startTime,
          load: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventEnd,
        })),
      );
      await context.close();
    }
    process.stdout.write(`\rround ${round} of ${LOADS}`);
  }
  await browser.close();
} finally {
  chrome.kill();
  await Promise.all([site.stop(), hello.stop()]);
}

console.log(`\n\nFirst paint in a new tab, ${LOADS} loads each (${process.env.HEADED ? "headed" : "headless"} Chromium, 412 px)`);
console.log("page          held back past load   first paint ms, median (loads not held back)   load event ms, median");
for (const target of targets) {
  const list = loads.get(target.name)!;
  const held = list.filter((entry) => entry.firstPaint > entry.load);
  const inTime = list.filter((entry) => entry.firstPaint <= entry.load);
  console.log(
    `${target.name.padEnd(14)}${`${held.length} of ${list.length}`.padEnd(22)}` +
      `${median(list.map((entry) => entry.firstPaint)).toFixed(0)} (${inTime.length ? median(inTime.map((entry) => entry.firstPaint)).toFixed(0) : "none"})`.padEnd(
        47,
      ) +
      median(list.map((entry) => entry.load)).toFixed(0),
  );
}
console.log(`\nThe whole benchmark, builds included, took ${((performance.now() - started) / 60_000).toFixed(1)} minutes.`);
