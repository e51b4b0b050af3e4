/**
 * Nothing moves while a page loads (issue 41): every layout shift Chromium reports from the first
 * paint until the page has loaded, hydrated and gone quiet, at a phone's width and a desktop's,
 * on each public page. A shift of any size fails, with what moved and where from.
 *
 * A long page's HTML is parsed, and may be painted, in pieces: on a slow phone or a busy machine
 * the first paint can come before the browser has read the whole first screen (here, 1 load in 20:
 * the phone menu painted before its button was read). Hence several loads of each page.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";

const PAGES = ["/", "/about", "/careers", "/join"];
const WIDTHS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1350, height: 940 },
];
/** Loads per page and width: a shift that depends on timing shows in some loads only. */
const LOADS = 3;

type Shift = { value: number; at: number; moved: string[] };

/** Records every layout shift from the start of the document, before any of the page's script runs. */
async function recordShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: { value: number; at: number; moved: string[] }[] = [];
    (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        sources?: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
      })[]) {
        const rect = (r: DOMRectReadOnly) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
        const moved = (entry.sources ?? []).map((source) => {
          const node = source.node as Element | undefined;
          const what = node
            ? `${node.nodeName.toLowerCase()}${node.id ? `#${node.id}` : ""}.${String(node.className ?? "").slice(0, 60)}`
            : "?";
          return `${what}: ${rect(source.previousRect)} -> ${rect(source.currentRect)}`;
        });
        shifts.push({ value: entry.value, at: Math.round(entry.startTime), moved });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

for (const { name, width, height } of WIDTHS) {
  test.describe(`no layout shift at a ${name}'s width`, () => {
    test.use({ viewport: { width, height } });

    for (const path of PAGES) {
      test(`${path}: nothing moves while it loads, ${LOADS} loads`, async ({ page }) => {
        await recordShifts(page);
        for (let load = 1; load <= LOADS; load += 1) {
          await page.goto(path, { waitUntil: "load" });
          // Hydration, the idle-time beacon and its web-vitals chunk come after the load event.
          await page.waitForLoadState("networkidle");
          await page.waitForTimeout(500);
          const shifts = await page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
          expect(shifts, `load ${load} of ${path} at ${width}×${height}`).toEqual([]);
        }
      });
    }
  });
}
