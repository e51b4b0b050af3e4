import { generateKeyPairSync } from "node:crypto";
import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions, missingChromium } from "./e2e/support/browser";
import { E2E_DATABASE_URL, E2E_MAIL_DIR, E2E_MAIL_PORT, E2E_PORT, E2E_SITE_URL } from "./e2e/support/config";

/**
 * By default the suite builds the site (when its inputs changed since the last build), migrates a fresh database of its own and
 * starts the site's server (server.ts) on a test port, as `npm start` does. Set E2E_BASE_URL to test a server that is
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
    : [
        {
          // A real SMTP server that keeps what the site sends, for the confirmation email's tests.
          command: `rm -rf ${E2E_MAIL_DIR} && node --import tsx e2e/support/mail-catcher.ts --port ${E2E_MAIL_PORT} --dir ${E2E_MAIL_DIR}`,
          port: E2E_MAIL_PORT,
          reuseExistingServer: false,
          timeout: 60_000,
          stdout: "ignore",
          stderr: "pipe",
        },
        {
          // The build is made only when its inputs changed (npm test makes it first, for this address).
          command: `rm -rf .tmp/e2e && npm run db:migrate && tsx lib/build/main.ts && node --import tsx server.ts --port ${E2E_PORT}`,
          url: `${baseURL}/`,
          env: {
            DATABASE_URL: E2E_DATABASE_URL,
            NEXT_TELEMETRY_DISABLED: "1",
            // Each test sends its own X-Forwarded-For (e2e/support/test.ts) and so has
            // its own rate-limit bucket; the limit itself stays at its default.
            TRUST_PROXY_HOPS: "1",
            // Playwright fills a form faster than any person; the minimum time is tested in tests/.
            WAITLIST_MIN_SUBMIT_MS: "0",
            // Every sign-up gets its confirmation email through the catcher above.
            SITE_URL: baseURL,
            WAITLIST_SECRET: "e2e-only-secret-0123456789abcdefghijklmn",
            SMTP_URL: `smtp://127.0.0.1:${E2E_MAIL_PORT}`,
            MAIL_FROM: "FieldCrew <hello@fieldcrew.app>",
            // Signed as in production (issue 39): a key of this run's own.
            MAIL_DKIM_SELECTOR: "e2e",
            MAIL_DKIM_PRIVATE_KEY: generateKeyPairSync("rsa", { modulusLength: 2048 })
              .privateKey.export({ type: "pkcs8", format: "pem" })
              .toString(),
          },
          reuseExistingServer: false,
          timeout: 300_000,
          stdout: "ignore",
          stderr: "pipe",
        },
      ],
});
