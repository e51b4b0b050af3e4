import { existsSync } from "node:fs";
import type { LaunchOptions } from "@playwright/test";

/**
 * Playwright cannot download its own browser on our machines; Debian's chromium
 * works. CHROMIUM_PATH overrides, and with neither, Playwright's own browser is used.
 */
export function chromiumLaunchOptions(): LaunchOptions {
  const executablePath =
    process.env.CHROMIUM_PATH || (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
  return {
    executablePath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      // Without these Chromium floods the closed network with refused connections.
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  };
}
