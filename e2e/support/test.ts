import { expect, test as base } from "@playwright/test";

export { expect };

let sequence = 0;

/**
 * An address from 198.18.0.0/15 (set aside for tests), different for every test.
 * The test server trusts one proxy hop (playwright.config.ts), so each test
 * has a rate-limit bucket of its own, as separate visitors would.
 */
export function uniqueClientAddress(): string {
  sequence += 1;
  const n = (process.pid % 500) * 1000 + sequence;
  return `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;
}

export const test = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, provide) => {
    await provide({ ...extraHTTPHeaders, "X-Forwarded-For": uniqueClientAddress() });
  },
  // What the site's policies refuse in a page is a part of it missing (a style, a script): no test passes with one.
  page: async ({ page }, provide) => {
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/.test(message.text())) refused.push(`${page.url()}: ${message.text()}`);
    });
    await provide(page);
    expect(refused, "the Content Security Policy refused something").toEqual([]);
  },
});
