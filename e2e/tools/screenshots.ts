/**
 * Screenshots of every page, and of the waitlist dialog's states, at phone and
 * desktop widths, for looking at the site as a visitor would.
 *
 *   npx tsx e2e/tools/screenshots.ts [base URL] [entry link]    (default http://localhost:3000)
 *
 * With the link from a confirmation email (docs/operations.md), also the
 * visitor's own page and the page a bad link gets; neither is changed.
 *
 * Writes PNGs to screenshots/ (ignored by git).
 */
import { mkdirSync } from "node:fs";
import { chromium, type Page } from "@playwright/test";
import { chromiumLaunchOptions } from "../support/browser";

const baseUrl = process.argv[2] ?? "http://localhost:3000";
const entryPath = process.argv[3] ? new URL(process.argv[3], baseUrl).pathname : undefined;
const outDir = "screenshots";
const widths = { phone: 360, desktop: 1440 } as const;
const pages = { home: "/", about: "/about", careers: "/careers", "not-found": "/no-such-page" } as const;

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${outDir}/${name}.png`, fullPage: true });
  console.log(`${outDir}/${name}.png`);
}

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  for (const [device, width] of Object.entries(widths)) {
    const page = await browser.newPage({ viewport: { width, height: device === "phone" ? 780 : 900 } });
    const shots: [string, string][] = Object.entries(pages);
    if (entryPath) shots.push(["entry", entryPath], ["entry-bad-link", `${entryPath.slice(0, -4)}XXXX`]);
    for (const [name, path] of shots) {
      await page.goto(baseUrl + path);
      await shoot(page, `${name}-${device}`);
    }

    await page.goto(baseUrl + "/");
    await page.getByRole("banner").getByRole("link", { name: "Join Waitlist" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("math-question").waitFor();
    await page.screenshot({ path: `${outDir}/dialog-${device}.png` });
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    await page.screenshot({ path: `${outDir}/dialog-errors-${device}.png` });
    console.log(`${outDir}/dialog-${device}.png, dialog-errors-${device}.png`);
    await page.close();
  }
} finally {
  await browser.close();
}
