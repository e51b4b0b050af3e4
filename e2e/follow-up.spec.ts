/**
 * The 48-hour promise end to end, in Chromium with a passkey-signed-in operator:
 * a visitor signs up and is at the top of the queue with about 48 hours left; the
 * operator marks them contacted with a note using the keyboard alone; the
 * visitor's own page says so; the operator edits the invitation and invites them,
 * and the email arrives at a real SMTP server; the visitor's page says they are
 * invited. axe on every console page it passes.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { storedEntry, withTestDatabase } from "./support/database";
import { confirmationEmailTo, entryLinkPath, mailsTo } from "./support/mail";
import { enrolNewOperator } from "./support/operator";
import { expect, test } from "./support/test";
import { signUpThroughApi, uniqueVisitor } from "./support/waitlist";

const longDay = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });

async function expectAxeClean(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

/**
 * The queue names its keys once they listen. The page's HTML (and a status line in it) is there
 * before its script has run, and a key pressed before then does nothing.
 */
async function queueKeysListen(page: Page) {
  await expect(page.locator("#queue-keys")).toContainText("j/k next and previous entry");
}

/**
 * Other tests' sign-ups (earlier, or in the other worker meanwhile) would share the queue: all but
 * these are taken out of it. Any that arrive later are newer, so they queue after these.
 */
function closeEveryoneAwaitingBut(ids: number[]) {
  withTestDatabase((sqlite) =>
    sqlite
      .prepare(
        `UPDATE waitlist_entries SET follow_up_state = 'closed', closed_reason = 'no_answer' WHERE follow_up_state = 'awaiting' AND id NOT IN (${ids.map(() => "?").join(", ")})`,
      )
      .run(...ids),
  );
}

test.describe("the follow-up queue", () => {
  test.describe.configure({ mode: "serial" });

  test("sign up, see the entry on top with 48 hours left, contact it by keyboard, invite it by email, and the visitor sees each step", async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const operator = await enrolNewOperator(page, "follow", baseURL!);
    // Its own domain: it waits for two emails, which example.com's hourly cap (20, shared by every spec) could hold back.
    const visitor = {
      ...uniqueVisitor("follow", "follow.example.com"),
      contact_name: `Quinn Follow ${Date.now()}`,
      company_name: "Quinn Electric",
    };
    await signUpThroughApi(request, visitor);
    const entryId = Number(storedEntry(visitor.email)!.id);
    closeEveryoneAwaitingBut([entryId]);
    const visitorLink = entryLinkPath(await confirmationEmailTo(visitor.email));

    // The queue: our visitor first, about 48 hours left, not marked due or overdue.
    await page.goto("/operator");
    const first = page.locator("[data-queue-row]").first();
    await expect(first).toContainText(visitor.contact_name);
    await expect(first).toContainText(/(47 h \d+ min|48 h 0 min) left/);
    await expect(first).not.toContainText("Overdue");
    await expectAxeClean(page);

    // Keyboard only: j to the entry, Tab to its note, type, Enter.
    await queueKeysListen(page);
    await page.locator("body").focus();
    await page.keyboard.press("j");
    await expect(first.getByRole("link", { name: visitor.contact_name })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(first.getByLabel(`Note on contacting ${visitor.contact_name} (optional)`)).toBeFocused();
    await page.keyboard.type("Called: wants a demo on Friday");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status")).toHaveText("1 entry marked contacted.");
    await expect(page.locator("[data-queue-row]").filter({ hasText: visitor.contact_name })).toHaveCount(0);
    expect(storedEntry(visitor.email)).toMatchObject({ follow_up_state: "contacted", state_changed_by: operator });

    // The visitor's page says so, in their words, and not the note.
    const visitorPage = await (await browser.newContext({ baseURL })).newPage();
    await visitorPage.goto(visitorLink);
    await expect(visitorPage.getByRole("heading", { name: "We've been in touch" })).toBeVisible();
    await expect(visitorPage.getByText(`We contacted you on ${longDay.format(new Date())}.`)).toBeVisible();
    await expect(visitorPage.getByText("wants a demo")).toHaveCount(0);
    // They confirm their address: from now on an invitation may carry the name and company they typed.
    await visitorPage.getByRole("button", { name: "Confirm my email" }).click();
    await expect(visitorPage.getByRole("button", { name: "Confirm my email" })).toHaveCount(0);

    // The entry's timeline holds the note; edit the invitation, then invite from the entry's page.
    await page.goto(`/operator/entries/${entryId}`);
    await expect(page.getByRole("region", { name: "Follow-up" }).getByText("Called: wants a demo on Friday")).toBeVisible();
    await expectAxeClean(page);
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Invitation" }).click();
    await page.getByLabel("Subject").fill("Your founding spot, {{name}}");
    await page.getByRole("button", { name: "Save the invitation" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    await page.getByLabel("Subject").fill("Hello {{email}}");
    await page.getByRole("button", { name: "Save the invitation" }).click();
    await expect(page.getByText("Use only {{name}} and {{company}} as placeholders.")).toBeVisible();
    await expectAxeClean(page);

    await page.goto(`/operator/entries/${entryId}`);
    await page.getByLabel("Change to").selectOption("invited");
    await page.getByRole("button", { name: "Change the follow-up" }).click();
    await expect(page.getByRole("status").first()).toContainText("1 entry marked invited.");
    await expect.poll(async () => (await mailsTo(visitor.email)).length, { timeout: 15_000 }).toBe(2);
    const invitation = (await mailsTo(visitor.email)).find(
      (mail) => mail.subject !== undefined && mail.subject.startsWith("Your founding spot"),
    )!;
    expect(invitation.subject).toBe(`Your founding spot, ${visitor.contact_name}`);
    expect(invitation.text).toContain("Quinn Electric has one of our 100 founding-member spots");
    expect(invitation.html).toContain("Quinn Electric");
    expect(invitation.text).toContain(visitorLink);

    await visitorPage.reload();
    await expect(visitorPage.getByRole("heading", { name: "You're invited" })).toBeVisible();
    await visitorPage.context().close();
  });

  test("c marks the focused entry contacted; x selects entries for a change to several at once", async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await enrolNewOperator(page, "keys", baseURL!);
    const visitors = [1, 2, 3].map((n) => ({ ...uniqueVisitor(`keys${n}`), contact_name: `Key Person ${n} ${Date.now()}` }));
    for (const visitor of visitors) await signUpThroughApi(request, visitor);
    closeEveryoneAwaitingBut(visitors.map((v) => Number(storedEntry(v.email)!.id)));

    // Without JavaScript the keys would do nothing, so they are not offered; the buttons are.
    const noScript = await browser.newContext({ baseURL, javaScriptEnabled: false, storageState: await page.context().storageState() });
    const noScriptPage = await noScript.newPage();
    await noScriptPage.goto("/operator");
    await expect(noScriptPage.getByRole("button", { name: "Mark contacted" }).first()).toBeVisible();
    await expect(noScriptPage.locator("#queue-keys")).toBeHidden();
    await expect(noScriptPage.locator("#queue-keys")).toHaveText("");
    await noScript.close();

    await page.goto("/operator");
    await queueKeysListen(page);
    await page.locator("body").focus();
    await page.keyboard.press("j");
    await page.keyboard.press("c");
    await expect(page.getByRole("status")).toHaveText("1 entry marked contacted.");
    expect(storedEntry(visitors[0]!.email)).toMatchObject({ follow_up_state: "contacted" });

    // The status line is in the next page's HTML: its keys listen a moment later.
    await queueKeysListen(page);
    await page.locator("body").focus();
    await page.keyboard.press("j");
    await page.keyboard.press("x");
    await page.keyboard.press("j");
    await page.keyboard.press("x");
    await page.getByLabel("Selected become").selectOption("closed");
    await page.getByLabel("If closed, why").selectOption("not_a_fit");
    await page.getByRole("button", { name: "Change selected" }).click();
    await expect(page.getByRole("status")).toHaveText("2 entries marked closed.");
    expect(visitors.slice(1).map((v) => storedEntry(v.email)!.closed_reason)).toEqual(["not_a_fit", "not_a_fit"]);
    for (const visitor of visitors) await expect(page.locator("[data-queue-row]").filter({ hasText: visitor.contact_name })).toHaveCount(0);
  });
});

test.describe("the console's times", () => {
  test.use({ timezoneId: "Europe/Berlin" });

  test("are in the browser's time zone, or the one chosen under Account", async ({ page, request, baseURL }) => {
    test.setTimeout(90_000);
    await enrolNewOperator(page, "zone", baseURL!);
    const visitor = { ...uniqueVisitor("zone"), contact_name: `Zoe Zone ${Date.now()}` };
    await signUpThroughApi(request, visitor);
    const entryId = Number(storedEntry(visitor.email)!.id);
    closeEveryoneAwaitingBut([entryId]);
    await page.goto("/operator");
    await expect(page.getByText("Times are Europe/Berlin (your browser's).")).toBeVisible();
    // The deadline as Berlin reads it: sign-up time + 48 hours, in CET.
    await expect(page.locator("[data-queue-row]").first()).toContainText(/due \d{1,2} \w{3} \d{4}, \d{2}:\d{2} CET/);

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Account" }).click();
    await page.getByLabel("Show times in").selectOption("Asia/Tokyo");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status")).toHaveText("Saved.");
    await page.goto(`/operator/entries/${entryId}`);
    await expect(page.getByRole("region", { name: "Follow-up" })).toContainText(/\d{2}:\d{2} GMT\+9/);
    await page.goto("/operator");
    await expect(page.getByText("Times are Asia/Tokyo (your setting).")).toBeVisible();
    await expectAxeClean(page);
  });
});
