import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions, missingChromium } from "./e2e/support/browser";
import { E2E_MAIL_DIR, E2E_MAIL_PORT, E2E_PORT, E2E_SITE_URL } from "./e2e/support/config";
import { e2eServerEnv } from "./e2e/support/server-env";
import { SERVER_NODE_ARGS } from "./scripts/build/server-bundle";

/**
 * By default the suite builds the site (when its inputs changed since the last build), migrates a fresh database of its own and
 * starts the site's server (server.ts, bundled by that step) on a test port, as `npm start` does. Set E2E_BASE_URL to test a server that is
 * already running instead (see README).
 */
const noBrowser = missingChromium();
if (noBrowser) {
  console.error(noBrowser);
  process.exit(1);
}

const externalBaseUrl = process.env.E2E_BASE_URL;
const baseURL = externalBaseUrl ?? E2E_SITE_URL;

export default defineConfig({
  testDir: "e2e",
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  timeout: 30_000,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    // A trace of a retried test only (CI retries once): recording one for every test, to keep the
    // failures', cost the suite 12-20 % of its time. A failure shows its screenshot and the page's
    // state (error-context.md) without one; `npm run test:e2e -- --trace on` records them all.
    trace: "on-first-retry",
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
  webServer: [
    {
      // A real SMTP server that keeps what the site sends, for the confirmation email's tests. Also
      // beside a server already running (E2E_BASE_URL): `npm run dev:e2e` sends to it.
      command: `rm -rf ${E2E_MAIL_DIR} && node --import tsx e2e/support/mail-catcher.ts --port ${E2E_MAIL_PORT} --dir ${E2E_MAIL_DIR}`,
      port: E2E_MAIL_PORT,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
    },
    ...(externalBaseUrl
      ? []
      : [
          {
            // The build is made only when its inputs changed (npm test makes it first, for this address).
            command: `rm -rf .tmp/e2e && npm run db:migrate && tsx scripts/build/main.ts && node ${SERVER_NODE_ARGS.join(" ")} --port ${E2E_PORT}`,
            url: `${baseURL}/`,
            env: e2eServerEnv(baseURL),
            reuseExistingServer: false,
            timeout: 300_000,
            stdout: "ignore" as const,
            stderr: "pipe" as const,
          },
        ]),
  ],
});
