import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/support/browser";
import { E2E_DATABASE_URL, E2E_PORT } from "./e2e/support/config";

/**
 * By default the suite builds the site, migrates a fresh database of its own and
 * starts `next start` on a test port. Set E2E_BASE_URL to test a server that is
 * already running instead (see README).
 */
const externalBaseUrl = process.env.E2E_BASE_URL;
const baseURL = externalBaseUrl ?? `http://127.0.0.1:${E2E_PORT}`;

export default defineConfig({
  testDir: "e2e",
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  timeout: 30_000,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: chromiumLaunchOptions(),
      },
    },
  ],
  webServer: externalBaseUrl
    ? undefined
    : {
        command: `rm -rf .tmp/e2e && npm run db:migrate && npm run build && npx next start --port ${E2E_PORT}`,
        url: `${baseURL}/`,
        env: { DATABASE_URL: E2E_DATABASE_URL, NEXT_TELEMETRY_DISABLED: "1" },
        reuseExistingServer: false,
        timeout: 300_000,
        stdout: "ignore",
        stderr: "pipe",
      },
});
