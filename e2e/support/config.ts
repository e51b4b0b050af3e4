/** The test server's port and database, shared by playwright.config.ts and the tests. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);

/**
 * The test server's address, its SITE_URL, which the build bakes into the prerendered pages (so
 * `npm test` builds once for it, first). localhost, not 127.0.0.1: WebAuthn refuses an IP address
 * as the relying party (the console's passkeys).
 */
export const E2E_SITE_URL = `http://localhost:${E2E_PORT}`;

/**
 * The database the test server writes to. Tests open it to check stored rows and
 * to make the server fail on purpose. When E2E_BASE_URL points at another server,
 * set E2E_DATABASE_URL to that server's DATABASE_URL.
 */
export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/waitlist.db";

/** The test SMTP server (e2e/support/mail-catcher.ts) and where it keeps what it receives. */
export const E2E_MAIL_PORT = Number(process.env.E2E_MAIL_PORT ?? 2590);
export const E2E_MAIL_DIR = process.env.E2E_MAIL_DIR ?? ".tmp/e2e-mail";
