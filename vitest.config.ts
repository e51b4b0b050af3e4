import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    // Migrates one template database per run; each test file works on its own copy.
    globalSetup: ["tests/support/global-setup.ts"],
    // The route handlers read their protections from the environment, as in production.
    // Tests of the protections themselves build handlers with their own settings.
    env: {
      WAITLIST_SECRET: "vitest-only-secret-0123456789abcdefghijklmnop",
      WAITLIST_MIN_SUBMIT_MS: "0",
      WAITLIST_RATE_LIMIT_MAX: "1000000",
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
