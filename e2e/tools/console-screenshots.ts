/**
 * Screenshots of the operator console at phone and desktop widths.
 *
 *   npm run waitlist -- operators add shots@fieldcrew.test     (prints an enrolment link)
 *   npx tsx e2e/tools/console-screenshots.ts <enrolment link> [page name ...]
 *
 * Enrols a passkey on a virtual authenticator from the link, then visits each
 * console page (the list's first entry for the entry page). The server must be
 * on localhost (passkeys refuse IP addresses); `npm run db:seed` fills a database
 * worth looking at. Writes PNGs to screenshots/ (ignored by git).
 */
import { mkdirSync } from "node:fs";
import { chromium, type Page } from "@playwright/test";
import { chromiumLaunchOptions } from "../support/browser";
import { addVirtualAuthenticator } from "../support/operator";

const link = process.argv[2];
if (!link) throw new Error("Give the enrolment link: npx tsx e2e/tools/console-screenshots.ts <link>");
const base = new URL(link).origin;
const outDir = "screenshots";
const widths = { phone: 390, desktop: 1366 } as const;

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${outDir}/console-${name}.png`, fullPage: true });
  console.log(`${outDir}/console-${name}.png`);
}

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const context = await browser.newContext({ viewport: { width: widths.desktop, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/operator/sign-in`);
  await shoot(page, "sign-in-desktop");
  await addVirtualAuthenticator(page);
  await page.goto(link);
  await shoot(page, "enrol-desktop");
  await page.getByRole("button", { name: "Create my passkey" }).click();
  await page.getByRole("heading", { level: 1, name: "Follow-up queue" }).waitFor();
  const entryHref = await (async () => {
    await page.goto(`${base}/operator/entries`);
    return page.locator("tbody a").first().getAttribute("href");
  })();
  const pages: [string, string][] = [
    ["queue", "/operator"],
    ["queue-mine", "/operator?assignee=me"],
    ["overview", "/operator/overview"],
    ["overview-90-campaign", "/operator/overview?days=90&split=campaign"],
    ["campaigns", "/operator/campaigns"],
    ["campaigns-sorted", "/operator/campaigns?sort=conversion&dir=desc"],
    ["invitation", "/operator/invitation"],
    ["entries", "/operator/entries"],
    ["entries-filtered", "/operator/entries?type=hvac&confirmed=no&q=heating"],
    ["entry", entryHref ?? "/operator/entries/1"],
    ["entry-remove", `${entryHref ?? "/operator/entries/1"}?confirm=remove`],
    ["audit", "/operator/audit"],
    ["account", "/operator/account"],
    ["operators", "/operator/operators"],
    ["confirm", "/operator/confirm?return=%2Foperator%2Faccount"],
    ["not-allowed", "/operator/not-allowed?need=export"],
  ];
  // Names after the link: only those pages (e.g. "overview campaigns").
  const only = process.argv.slice(3);
  const chosen = only.length > 0 ? pages.filter(([name]) => only.includes(name)) : pages;
  for (const [device, width] of Object.entries(widths)) {
    await page.setViewportSize({ width, height: device === "phone" ? 844 : 900 });
    for (const [name, path] of chosen) {
      await page.goto(base + path);
      await shoot(page, `${name}-${device}`);
    }
  }
  await page.setViewportSize({ width: widths.phone, height: 844 });
  await page.getByRole("button", { name: "Sign out" }).click();
  await shoot(page, "sign-in-phone");
} finally {
  await browser.close();
}
