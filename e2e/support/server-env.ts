/**
 * The environment of the server the end-to-end tests run against: the one Playwright starts
 * (playwright.config.ts), and the development server `npm run dev:e2e` starts for running them
 * against hot-reloading code (e2e/tools/dev-server.ts). One list, so the two cannot drift.
 */
import { generateKeyPairSync } from "node:crypto";
import { E2E_DATABASE_URL, E2E_MAIL_PORT } from "./config";

export function e2eServerEnv(siteUrl: string): Record<string, string> {
  return {
    DATABASE_URL: E2E_DATABASE_URL,
    NEXT_TELEMETRY_DISABLED: "1",
    // Each test sends its own X-Forwarded-For (e2e/support/test.ts) and so has
    // its own rate-limit bucket; the limit itself stays at its default.
    TRUST_PROXY_HOPS: "1",
    // Playwright fills a form faster than any person; the minimum time is tested in tests/.
    WAITLIST_MIN_SUBMIT_MS: "0",
    // Every sign-up gets its confirmation email through the mail catcher (e2e/support/mail-catcher.ts).
    SITE_URL: siteUrl,
    WAITLIST_SECRET: "e2e-only-secret-0123456789abcdefghijklmn",
    SMTP_URL: `smtp://127.0.0.1:${E2E_MAIL_PORT}`,
    MAIL_FROM: "FieldCrew <hello@fieldcrew.app>",
    // Signed as in production (issue 39): a key of this run's own.
    MAIL_DKIM_SELECTOR: "e2e",
    MAIL_DKIM_PRIVATE_KEY: generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString(),
  };
}
