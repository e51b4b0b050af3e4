import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// The route handlers read their protections from the environment, as in production.
// Tests of the protections themselves build handlers with their own settings.
const env = {
  WAITLIST_SECRET: "vitest-only-secret-0123456789abcdefghijklmnop",
  WAITLIST_MIN_SUBMIT_MS: "0",
  WAITLIST_RATE_LIMIT_MAX: "1000000",
};

/**
 * Unit and route tests: the real handlers and queries on real migrated SQLite files. Not isolated:
 * each worker process runs its files one after another with the modules it has loaded (importing
 * them again for each file was 40 s of each driver's 120), and a setup file closes and forgets the
 * process-wide objects after each file, so each starts as in a new process.
 */
const unit = {
  include: ["tests/**/*.test.ts"],
  exclude: ["tests/servers/**", "tests/faults/**"],
  isolate: false,
  setupFiles: ["tests/support/fresh-process-state.ts"],
};

/**
 * Test files that open no database (pure logic, the build's inputs, the sending thread, the front
 * door's headers, where server-only code may be imported): the driver cannot change what they
 * show, so they run once, in the default driver's project.
 */
const openNoDatabase = [
  "tests/scripts/build/inputs.test.ts",
  "tests/waitlist/challenge.test.ts",
  "tests/outbox/channel-thread.test.ts",
  "tests/waitlist/email-suggestion.test.ts",
  "tests/site/front-door.test.ts",
  "tests/group-commit.test.ts",
  "tests/site/request-errors.test.ts",
  "tests/security/headers.test.ts",
  "tests/server-only-boundary.test.ts",
  "tests/db/thread-time.test.ts",
  "tests/waitlist/schema.test.ts",
];

export default defineConfig({
  resolve: {
    alias: [
      { find: "@", replacement: path.resolve(import.meta.dirname) },
      // As in tsconfig.json: on the server, the marker of server-only modules is an empty module.
      { find: /^server-only$/, replacement: path.resolve(import.meta.dirname, "node_modules/next/dist/compiled/server-only/empty.js") },
    ],
  },
  test: {
    environment: "node",
    // Migrates one template database per run; each test file works on its own copy.
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 30_000,
    // Vitest leaves one core free by default: on a 2-core machine, one test file at a time. The
    // files wait on child processes, fsync and timers often enough to use every core.
    maxWorkers: availableParallelism(),
    hookTimeout: 60_000,
    projects: [
      // Every unit test that opens a database runs twice, once per driver adapter the site supports:
      // better-sqlite3 (the embedded default) and libSQL in its embedded file mode, the engine a
      // Turso database runs. Those that open none (openNoDatabase) run once, here.
      { extends: true, test: { name: "better-sqlite3", ...unit, env: { ...env, DATABASE_DRIVER: "better-sqlite3" } } },
      // The connection thread is kept the same way for both drivers: its faults are tested once, with better-sqlite3.
      {
        extends: true,
        test: {
          name: "libsql",
          ...unit,
          exclude: [...unit.exclude, ...openNoDatabase, "tests/db/worker-connection.test.ts"],
          env: { ...env, DATABASE_DRIVER: "libsql" },
        },
      },
      // Production servers started as child processes on a build (npm run test:instances).
      {
        extends: true,
        test: {
          name: "servers",
          include: ["tests/servers/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      // Faults against production servers: a dead or hung database thread, an unopenable file, a
      // lock held by another process, floods, slow receivers, oversized bodies (npm run test:faults).
      {
        extends: true,
        test: {
          name: "faults",
          include: ["tests/faults/**/*.test.ts"],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
