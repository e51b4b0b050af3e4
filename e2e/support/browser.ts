import { existsSync } from "node:fs";
import { chromium, type LaunchOptions } from "@playwright/test";

/** Flags for Chromium on our machines, for Playwright and for Lighthouse (bench/lighthouse.ts). */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  // Without these Chromium floods the closed network with refused connections.
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Debian's chromium, or CHROMIUM_PATH; undefined means Playwright's own browser. */
export function chromiumPath(): string | undefined {
  return process.env.CHROMIUM_PATH || (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
}

/**
 * Playwright cannot download its own browser on our machines; Debian's chromium
 * works. CHROMIUM_PATH overrides, and with neither, Playwright's own browser is used.
 */
export function chromiumLaunchOptions(): LaunchOptions {
  return { executablePath: chromiumPath(), args: CHROMIUM_FLAGS };
}

/**
 * Why the end-to-end tests cannot start a browser, in one sentence with the fix; null when one is
 * there (Debian's, CHROMIUM_PATH's, or Playwright's own).
 */
export function missingChromium(): string | null {
  const configured = process.env.CHROMIUM_PATH;
  if (configured)
    return existsSync(configured)
      ? null
      : `CHROMIUM_PATH is ${configured}, and there is no file there: point it at a Chromium or Chrome, or unset it.`;
  if (chromiumPath() || existsSync(chromium.executablePath())) return null;
  return "The end-to-end tests need Chromium, and none was found: install it (sudo apt-get install chromium on Debian or Ubuntu; .ci/run does), or set CHROMIUM_PATH to a Chromium or Chrome.";
}
