import { existsSync } from "node:fs";
import type { LaunchOptions } from "@playwright/test";

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
