/** The test server's port and database, shared by playwright.config.ts and the tests. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);

/**
 * The database the test server writes to. Tests open it to check stored rows and
 * to make the server fail on purpose. When E2E_BASE_URL points at another server,
 * set E2E_DATABASE_URL to that server's DATABASE_URL.
 */
export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/waitlist.db";
