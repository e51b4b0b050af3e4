/**
 * The dialog when the waitlist cannot take a sign-up for a moment: another
 * process holds the database's write lock, the server answers 503, and the
 * visitor reads "try again in a moment" with everything they typed still there;
 * once the lock is gone, sending the same form again signs them up. Runs
 * against a production server of its own (its own file, its own port), so
 * locking its database holds up no other test.
 */
import BetterSqlite3 from "better-sqlite3";
import { freshDatabase, startSiteServer, type SiteServer } from "../bench/support/site-server";
import { VISITOR_MESSAGES } from "../lib/waitlist/messages";
import { expect, test } from "./support/test";
import { answerFor, fillSignup, openFromHeader, uniqueVisitor } from "./support/waitlist";

const PORT = 3219;
let server: SiteServer;
let starting: Promise<SiteServer> | undefined;
let file: string;

test.beforeAll(async () => {
  // Bundling and starting a server of its own took over 30 s (the hook's default) on a 2-core
  // machine running the other test stages beside this one; startSiteServer waits up to 60 s.
  test.setTimeout(120_000);
  file = freshDatabase("e2e-busy");
  starting = startSiteServer({
    port: PORT,
    databaseFile: file,
    env: {
      SITE_URL: `http://127.0.0.1:${PORT}`,
      WAITLIST_MIN_SUBMIT_MS: "0",
      TRUST_PROXY_HOPS: "1",
      WAITLIST_SECRET: "e2e-busy-secret-0123456789abcdefghijklmn",
    },
  });
  server = await starting;
});

test.afterAll(async () => {
  // Also a server that came up after the hook gave up: else it keeps the port, and the retry
  // cannot start its own.
  await (await starting?.catch(() => undefined))?.stop();
});

test("a 503 shows 'try again in a moment', keeps the form, stores nothing, and the same form goes through once the lock is gone", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto(`${server.url}/`);
  const dialog = await openFromHeader(page);
  const visitor = uniqueVisitor("busy");
  await fillSignup(dialog, visitor);
  await dialog.getByLabel("Security check").fill(await answerFor(dialog));

  const holder = new BetterSqlite3(file);
  holder.exec("BEGIN IMMEDIATE");
  try {
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(VISITOR_MESSAGES.busy, { timeout: 15_000 });
    expect(VISITOR_MESSAGES.busy).toContain("try again in a moment");
    // Everything the visitor typed is still there.
    await expect(dialog.getByLabel("Company name")).toHaveValue(visitor.company_name);
    await expect(dialog.getByLabel("Email")).toHaveValue(visitor.email);
    await expect(dialog.getByLabel("Company name")).toBeEditable();
    await expect(dialog.getByLabel("Notes")).toHaveValue(visitor.notes!);
    holder.exec("COMMIT");
    const stored = holder.prepare("SELECT COUNT(*) AS n FROM waitlist_entries WHERE email = ?").get(visitor.email) as { n: number };
    expect(stored.n).toBe(0);
  } finally {
    if (holder.inTransaction) holder.exec("ROLLBACK");
  }

  await dialog.getByRole("button", { name: "Secure My Spot" }).click();
  await expect(dialog.getByRole("heading", { name: "You're On The List!" })).toBeVisible({ timeout: 15_000 });
  const stored = holder.prepare("SELECT COUNT(*) AS n FROM waitlist_entries WHERE email = ?").get(visitor.email) as { n: number };
  expect(stored.n).toBe(1);
  holder.close();
});
