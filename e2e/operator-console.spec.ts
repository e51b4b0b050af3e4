/**
 * The operator console end to end, in Chromium with a virtual passkey
 * authenticator: enrol from the link the shell prints, sign out, sign in with the
 * passkey, read the overview's counts, filter, open an entry, download the CSV,
 * remove the entry. Against the real server and its database.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Locator } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { withTestDatabase, storedEntry } from "./support/database";
import { enrolNewOperator } from "./support/operator";
import { expect, test } from "./support/test";
import { signUpThroughApi, uniqueVisitor } from "./support/waitlist";

const entryCount = () =>
  withTestDatabase((sqlite) => (sqlite.prepare("SELECT count(*) AS n FROM waitlist_entries").get() as { n: number }).n);
const auditOf = (entryId: number) =>
  withTestDatabase(
    (sqlite) =>
      sqlite.prepare("SELECT actor, action FROM operator_actions WHERE entry_id = ? ORDER BY id").all(entryId) as {
        actor: string;
        action: string;
      }[],
  );

test.describe("the operator console", () => {
  test("a passkey button is disabled until the page's script can run the ceremony, so an early tap is not lost", async ({
    browser,
    baseURL,
  }) => {
    // Without a script the button can do nothing: it must not look as if it could.
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/operator/sign-in");
    await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeDisabled();
    await context.close();
    const withScript = await browser.newPage({ baseURL });
    await withScript.goto("/operator/sign-in");
    await expect(withScript.getByRole("button", { name: "Sign in with a passkey" })).toBeEnabled();
    await withScript.close();
  });

  test("enrol, sign out, sign in with the passkey, and work the list", async ({ page, request, baseURL }) => {
    // A whole session of an operator: longer than the default 30 s on a slow machine.
    test.setTimeout(90_000);
    const visitor = { ...uniqueVisitor("console"), company_name: `Console Test Plumbing ${Date.now()}` };
    await signUpThroughApi(request, visitor);
    const stored = storedEntry(visitor.email)!;

    const operator = await enrolNewOperator(page, "enrol", baseURL!);

    // Signed out, the console is the sign-in page.
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/operator\/sign-in$/);
    await page.goto("/operator/entries");
    await expect(page).toHaveURL(/\/operator\/sign-in$/);

    // The passkey signs back in (the browser offers it; no name to type).
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Follow-up queue" })).toBeVisible();
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Overview" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

    // The overview's total is the database's (other tests may add sign-ups meanwhile: between the two reads).
    const before = entryCount();
    await page.reload();
    const after = entryCount();
    const shown = Number((await page.getByText("All sign-ups").locator("..").locator("dd").first().textContent())!.replace(/,/g, ""));
    expect(shown).toBeGreaterThanOrEqual(before);
    expect(shown).toBeLessThanOrEqual(after);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // Filter by search and trade: the visitor is there; open their entry.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Entries" }).click();
    await page.getByLabel("Search").fill(visitor.company_name);
    await page.getByLabel("Trade").selectOption({ value: visitor.business_type });
    await page.getByRole("button", { name: "Apply filters" }).click();
    const row = page.getByRole("row").filter({ hasText: visitor.company_name });
    await expect(row).toHaveCount(1);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // The filtered download: a CSV with exactly that entry.
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV" }).click();
    const file = await (await download).path();
    const records = parse(await import("node:fs/promises").then((fs) => fs.readFile(file!, "utf8")), { columns: true }) as Record<
      string,
      string
    >[];
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ id: String(stored.id), email: visitor.email, company_name: visitor.company_name });

    await row.getByRole("link", { name: visitor.contact_name }).click();
    await expect(page.getByRole("heading", { level: 1, name: visitor.contact_name })).toBeVisible();
    await expect(page.getByText(visitor.email)).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // Remove, through the confirmation step.
    await page.getByRole("link", { name: "Remove entry…" }).click();
    await page.getByRole("button", { name: "Yes, remove this entry" }).click();
    await expect(page.getByRole("status")).toContainText(`Entry #${stored.id} was removed`);
    expect(storedEntry(visitor.email)).toBeUndefined();
    expect(auditOf(Number(stored.id))).toEqual([{ actor: operator, action: "entry_removed" }]);

    // And the audit log shows the session's story.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Audit log" }).click();
    const mine = page.getByRole("row").filter({ hasText: operator });
    await expect(mine.filter({ hasText: "Removed an entry" })).toHaveCount(1);
    await expect(mine.filter({ hasText: "Downloaded the list" })).toHaveCount(1);
    await expect(mine.filter({ hasText: "Signed in" })).toHaveCount(2);
    await expect(mine.filter({ hasText: "Signed out" })).toHaveCount(1);
    await expect(mine.filter({ hasText: "Added a passkey" })).toHaveCount(1);
  });

  test("an enrolment link works once", async ({ page, browser, baseURL }) => {
    const { inviteOperator, uniqueOperatorEmail, addVirtualAuthenticator } = await import("./support/operator");
    const link = inviteOperator(uniqueOperatorEmail("once"), baseURL!);
    await addVirtualAuthenticator(page);
    await page.goto(link);
    await page.getByRole("button", { name: "Create my passkey" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Follow-up queue" })).toBeVisible();

    const other = await browser.newContext();
    const second = await other.newPage();
    await addVirtualAuthenticator(second);
    await second.goto(link);
    await second.getByRole("button", { name: "Create my passkey" }).click();
    await expect(second.getByText("This enrolment link has been used or has expired.")).toBeVisible();
    await second.goto("/operator");
    await expect(second).toHaveURL(/\/operator\/sign-in$/);
    await other.close();
  });

  test("a lost passkey: a one-time sign-in link by email, and a new passkey from Account", async ({ page, browser, baseURL }) => {
    // A whole session of an operator: longer than the default 30 s on a slow machine.
    test.setTimeout(90_000);
    const { mailsTo } = await import("./support/mail");
    const { addVirtualAuthenticator } = await import("./support/operator");
    const email = await enrolNewOperator(page, "lost", baseURL!);

    // Another browser, no passkey there: ask for a link (the same answer for anyone).
    const other = await browser.newContext({ baseURL });
    const lost = await other.newPage();
    await lost.goto("/operator/sign-in");
    await lost.getByLabel("Your work email").fill("nobody-at-all@fieldcrew.test");
    await lost.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(lost.getByText("If that address belongs to an operator, a sign-in link is on its way.")).toBeVisible();
    await lost.reload();
    await lost.getByLabel("Your work email").fill(email);
    await lost.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(lost.getByText("If that address belongs to an operator, a sign-in link is on its way.")).toBeVisible();

    await expect.poll(async () => (await mailsTo(email)).length, { timeout: 15_000 }).toBe(1);
    expect(await mailsTo("nobody-at-all@fieldcrew.test")).toEqual([]);
    const link = /https?:\/\/\S+\/operator\/sign-in\/email\?token=\S+/.exec((await mailsTo(email))[0]!.text ?? "")?.[0];
    expect(link).toBeDefined();

    // Opening the link signs nobody in (a mail scanner may open it); the button does, once.
    await lost.goto(new URL(link!).pathname + new URL(link!).search);
    await lost.getByRole("button", { name: "Sign in" }).click();
    await expect(lost.getByRole("heading", { level: 1, name: "Follow-up queue" })).toBeVisible();
    // An emailed link lets them work, but not add a passkey: that would turn a stolen link into
    // lasting access. It takes a fresh passkey sign-in, or a new enrolment link from an admin.
    await lost.goto("/operator/account");
    await addVirtualAuthenticator(lost);
    await lost.getByRole("button", { name: "Add a passkey" }).click();
    await expect(lost.getByRole("alert").filter({ hasText: "This needs a passkey sign-in within the last 10 minutes" })).toBeVisible();
    expect(
      withTestDatabase(
        (sqlite) =>
          (
            sqlite
              .prepare("SELECT count(*) AS n FROM operator_passkeys WHERE operator_id = (SELECT id FROM operators WHERE email = ?)")
              .get(email) as { n: number }
          ).n,
      ),
    ).toBe(1);

    // The link is used up.
    const third = await browser.newContext({ baseURL });
    const again = await third.newPage();
    await again.goto(new URL(link!).pathname + new URL(link!).search);
    await again.getByRole("button", { name: "Sign in" }).click();
    await expect(again).toHaveURL(/\/operator\/sign-in\?error=/);
    await expect(again.getByText("That sign-in link has been used or has expired.")).toBeVisible();
    await other.close();
    await third.close();
  });

  test("works with the keyboard alone: search, open an entry, remove it", async ({ page, request, baseURL }) => {
    // A whole session of an operator: longer than the default 30 s on a slow machine.
    test.setTimeout(90_000);
    const visitor = { ...uniqueVisitor("keyboard"), company_name: `Keyboard Only Electric ${Date.now()}` };
    await signUpThroughApi(request, visitor);
    await enrolNewOperator(page, "keyboard", baseURL!);
    await page.goto("/operator/entries");

    /** Presses Tab until the target has the focus, as someone without a mouse would. */
    async function tabTo(target: Locator, description: string) {
      for (let presses = 0; presses < 40; presses++) {
        await page.keyboard.press("Tab");
        if (await target.evaluate((element) => element === document.activeElement)) return;
      }
      throw new Error(`Tab never reached ${description}`);
    }
    await tabTo(page.getByLabel("Search"), "the search field");
    await page.keyboard.type(visitor.company_name);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("row").filter({ hasText: visitor.company_name })).toHaveCount(1);
    await tabTo(page.getByRole("link", { name: visitor.contact_name }), "the entry's link");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: visitor.contact_name })).toBeVisible();
    await tabTo(page.getByRole("link", { name: "Remove entry…" }), "Remove entry");
    await page.keyboard.press("Enter");
    await tabTo(page.getByRole("button", { name: "Yes, remove this entry" }), "the confirmation");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status")).toContainText("was removed");
    expect(storedEntry(visitor.email)).toBeUndefined();
  });

  test("every console page passes axe, on a phone too", async ({ page, request, baseURL }) => {
    // Fourteen page loads, each with a full axe run: more than the default 30 s on a slow machine.
    test.setTimeout(120_000);
    const visitor = uniqueVisitor("axe");
    await signUpThroughApi(request, visitor);
    const { inviteOperator, uniqueOperatorEmail, addVirtualAuthenticator } = await import("./support/operator");
    const check = async (what: string) => expect((await new AxeBuilder({ page }).analyze()).violations, what).toEqual([]);
    await page.goto("/operator/sign-in");
    await check("sign-in");
    const link = inviteOperator(uniqueOperatorEmail("axe"), baseURL!);
    await addVirtualAuthenticator(page);
    await page.goto(link);
    await check("enrol");
    await page.getByRole("button", { name: "Create my passkey" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Follow-up queue" })).toBeVisible();
    const entryPath = `/operator/entries/${storedEntry(visitor.email)!.id}`;
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of [
        "/operator?days=90&split=campaign",
        "/operator/entries?type=hvac",
        entryPath,
        `${entryPath}?confirm=remove`,
        "/operator/audit",
        "/operator/account",
      ]) {
        await page.goto(path);
        await check(`${path} at ${width}px`);
      }
    }
  });
});
