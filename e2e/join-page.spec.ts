/**
 * Joining, asking for the link again and reading the privacy notice with JavaScript
 * switched off (a blocked script, an old phone, a reader mode), in Chromium against the
 * production server; then the join page with JavaScript on, and axe and the keyboard on
 * every new page.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { PRIVACY_NOTICE_VERSION } from "../lib/content/privacy";
import { LINK_AGAIN_ANSWER } from "../lib/waitlist/link-again";
import { VISITOR_MESSAGES } from "../lib/waitlist/messages";
import { storedEntry, withTestDatabase } from "./support/database";
import { entryLinkPath, mailsTo } from "./support/mail";
import { expect, test } from "./support/test";
import { answerFor, fillSignup, signUpThroughApi, uniqueVisitor } from "./support/waitlist";

/**
 * Their own domains: every sign-up is mailed, and the site mails one domain at most 20 times an
 * hour (MAIL_MAX_PER_DOMAIN_PER_HOUR), which the other specs' example.com addresses share.
 */
const JOIN_DOMAIN = "join.example.com";

const scan = (page: Page) => new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21aa"]).analyze();

const entriesFor = (email: string) =>
  withTestDatabase(
    (sqlite) => (sqlite.prepare("SELECT count(*) AS n FROM waitlist_entries WHERE email = ?").get(email) as { n: number }).n,
  );

/** The join page's form: the page's main content. */
const joinForm = (page: Page): Locator => page.getByRole("main");

const JOIN_LINKS: [string, (page: Page) => Locator][] = [
  ["/", (page) => page.getByRole("region", { name: /Run your whole service business/ }).getByRole("link", { name: "Join the Waitlist" })],
  ["/about", (page) => page.getByRole("region", { name: "Want to build it with us?" }).getByRole("link", { name: "Join the Waitlist" })],
  ["/careers", (page) => page.getByRole("region", { name: "Run a service business?" }).getByRole("link", { name: "Join the Waitlist" })],
];

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const [path, joinLink] of JOIN_LINKS) {
    test(`from ${path}: a missing field and a wrong answer keep every value, then joining works and a second try is a duplicate`, async ({
      page,
    }) => {
      const visitor = uniqueVisitor(`nojs${path.replace("/", "-")}`, JOIN_DOMAIN);
      await page.goto(path);
      await joinLink(page).click();
      await expect(page).toHaveURL(/\/join$/);
      const form = joinForm(page);
      await expect(form.getByRole("heading", { level: 1, name: "Join the Waitlist" })).toBeVisible();
      await expect(form).toContainText("Only 47 spots left this month.");
      await expect(page.getByRole("banner").getByRole("link", { name: "Join Waitlist" })).toHaveAttribute("href", "/join");

      // A missing phone and a wrong answer: both said at once, the rest kept as typed, nothing stored.
      await fillSignup(form, { ...visitor, phone: "" });
      const firstQuestion = await form.getByTestId("math-question").textContent();
      await form.getByLabel("Security check").fill(String(Number(await answerFor(form)) + 1));
      await form.getByRole("button", { name: "Secure My Spot" }).click();
      await expect(form.getByText(VISITOR_MESSAGES.wrongAnswer)).toBeVisible();
      await expect(form.getByText("Enter your phone number.")).toBeVisible();
      await expect(form.getByLabel("Company name")).toHaveValue(visitor.company_name);
      await expect(form.getByLabel("Email")).toHaveValue(visitor.email);
      await expect(form.getByLabel("Business type")).toHaveValue(visitor.business_type);
      await expect(form.getByLabel("Notes")).toHaveValue(visitor.notes ?? "");
      await expect(form.getByLabel("Phone")).toHaveAttribute("aria-invalid", "true");
      await expect(form.getByLabel("Security check")).toHaveValue("");
      expect(entriesFor(visitor.email)).toBe(0);
      // "New question" posts the form back with another question, values still kept. It differs
      // from the one on screen; the very first may come round again (one chance in ~200).
      const shownQuestion = await form.getByTestId("math-question").textContent();
      expect(shownQuestion).not.toBe(firstQuestion);
      await form.getByRole("button", { name: "New question" }).click();
      await expect(form.getByTestId("math-question")).not.toHaveText(shownQuestion!);
      await expect(form.getByLabel("Company name")).toHaveValue(visitor.company_name);

      await form.getByLabel("Phone").fill(visitor.phone);
      await form.getByLabel("Security check").fill(await answerFor(form));
      await form.getByRole("button", { name: "Secure My Spot" }).click();
      await expect(form.getByRole("heading", { level: 1, name: "You're On The List!" })).toBeVisible();
      await expect(form).toContainText(`Thanks, ${visitor.contact_name}. ${visitor.company_name} has a founding-member spot waiting.`);
      expect(storedEntry(visitor.email)).toMatchObject({
        company_name: visitor.company_name,
        source_page: path,
        notice_version: PRIVACY_NOTICE_VERSION,
      });

      // The same address again: the spec's duplicate message, a way to the link, still one entry.
      await page.goto("/join");
      await fillSignup(form, visitor);
      await form.getByLabel("Security check").fill(await answerFor(form));
      await form.getByRole("button", { name: "Secure My Spot" }).click();
      await expect(form.getByRole("alert")).toContainText(VISITOR_MESSAGES.alreadyOnList);
      await expect(form.getByRole("alert").getByRole("link", { name: "Email me my link again" })).toHaveAttribute("href", "/waitlist/link");
      await expect(form.getByLabel("Company name")).toHaveValue(visitor.company_name);
      expect(entriesFor(visitor.email)).toBe(1);
    });
  }

  test("the footer leads to the join page, the link page and the privacy notice, which states the version", async ({ page }) => {
    await page.goto("/careers");
    const footer = page.getByRole("navigation", { name: "Waitlist" });
    await footer.getByRole("link", { name: "Privacy notice" }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.getByRole("heading", { level: 1, name: "Privacy notice" })).toBeVisible();
    for (const heading of ["What we collect", "Why", "Who sees it", "How long we keep it", "See it, take it, delete it", "Contact"]) {
      await expect(page.getByRole("heading", { level: 2, name: heading, exact: true })).toBeVisible();
    }
    await expect(page.getByRole("main")).toContainText(`Version ${PRIVACY_NOTICE_VERSION}`);
    await page.getByRole("navigation", { name: "Waitlist" }).getByRole("link", { name: "Email me my link again" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Email me my link again" })).toBeVisible();
    await page.goto("/join");
    await expect(page.getByRole("main").getByRole("link", { name: "Privacy notice" })).toHaveAttribute("href", "/privacy");
  });

  test("email me my link again: one new link to the address on the list, the same answer for an unknown one, one an hour", async ({
    page,
    request,
  }) => {
    const visitor = uniqueVisitor("linkagain", "link.example.com");
    await signUpThroughApi(request, visitor);
    await expect.poll(async () => (await mailsTo(visitor.email)).length, { timeout: 15_000 }).toBe(1);

    const ask = async (email: string) => {
      await page.goto("/waitlist/link");
      await page.getByLabel("Email address").fill(email);
      await page.getByRole("button", { name: "Email me my link" }).click();
      await expect(page.getByRole("status")).toHaveText(LINK_AGAIN_ANSWER);
    };
    await ask(visitor.email.toUpperCase());
    await expect.poll(async () => (await mailsTo(visitor.email)).length, { timeout: 15_000 }).toBe(2);
    const mail = (await mailsTo(visitor.email)).find((one) => one.subject === "Your link to your FieldCrew waitlist entry")!;
    expect(mail).toBeDefined();
    const entryPage = await page.goto(entryLinkPath(mail));
    expect(entryPage!.status()).toBe(200);
    await expect(page.getByRole("main")).toContainText(visitor.company_name);

    // Within the hour: the same answer, no second email.
    await ask(visitor.email);
    const stranger = uniqueVisitor("linkagain-unknown", "link.example.com").email;
    await ask(stranger);
    // The delivery worker is prompted after each answer; give it the time the first email took.
    await page.waitForTimeout(3_000);
    expect(await mailsTo(visitor.email)).toHaveLength(2);
    expect(await mailsTo(stranger)).toHaveLength(0);
  });
});

test.describe("with JavaScript", () => {
  test("the join page works on its own: a refused post and a sign-up without leaving the page", async ({ page }) => {
    const visitor = uniqueVisitor("js-join", JOIN_DOMAIN);
    const loads: string[] = [];
    page.on("load", () => loads.push(page.url()));
    await page.goto("/join");
    const form = joinForm(page);
    await fillSignup(form, { ...visitor, company_name: "" });
    await form.getByLabel("Security check").fill(await answerFor(form));
    await form.getByRole("button", { name: "Secure My Spot" }).click();
    await expect(form.getByText("Enter your company name.")).toBeVisible();
    await expect(form.getByLabel("Company name")).toBeFocused();
    await expect(form.getByLabel("Email")).toHaveValue(visitor.email);
    expect(entriesFor(visitor.email)).toBe(0);

    await form.getByLabel("Company name").fill(visitor.company_name);
    await form.getByRole("button", { name: "Secure My Spot" }).click();
    await expect(form.getByRole("heading", { name: "You're On The List!" })).toBeVisible();
    expect(loads).toHaveLength(1);
    expect(storedEntry(visitor.email)).toMatchObject({ source_page: "/join" });
  });

  test("a Join link still opens the dialog, and opens the join page in a new tab when asked to", async ({ page, context }) => {
    await page.goto("/about");
    const link = page.getByRole("region", { name: "Want to build it with us?" }).getByRole("link", { name: "Join the Waitlist" });
    await expect(link).toHaveAttribute("aria-haspopup", "dialog");
    const [tab] = await Promise.all([context.waitForEvent("page"), link.click({ modifiers: ["ControlOrMeta"] })]);
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toBe("/join");
    await tab.close();
    await link.click();
    await expect(page.getByRole("dialog", { name: "Join the Waitlist" })).toBeVisible();
    await expect(page).toHaveURL(/\/about$/);
  });
});

test.describe("the new pages: axe and the keyboard", () => {
  for (const path of ["/join", "/waitlist/link", "/privacy"]) {
    test(`${path} has no axe violations and answers with a nonce policy`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response!.status()).toBe(200);
      expect(response!.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+';/);
      expect(response!.headers()["cache-control"]).toBe("no-store");
      expect((await scan(page)).violations).toEqual([]);
    });
  }

  test("the join page from the keyboard alone: tab through every field in order and join with Enter", async ({ page }) => {
    const visitor = uniqueVisitor("keyboard-join", JOIN_DOMAIN);
    await page.goto("/join");
    const form = joinForm(page);
    await form.getByLabel("Company name").focus();
    const order: string[] = [];
    for (let i = 0; i < 9; i += 1) {
      order.push(await page.evaluate(() => document.activeElement?.getAttribute("name") ?? document.activeElement?.textContent ?? ""));
      await page.keyboard.press("Tab");
    }
    expect(order).toEqual([
      "company_name",
      "contact_name",
      "email",
      "phone",
      "business_type",
      "company_size",
      "notes",
      "challenge_answer",
      "intent",
    ]);
    await fillSignup(form, visitor);
    await form.getByLabel("Security check").fill(await answerFor(form));
    await form.getByLabel("Security check").press("Enter");
    await expect(form.getByRole("heading", { name: "You're On The List!" })).toBeVisible();
    expect((await scan(page)).violations).toEqual([]);
  });

  test("a refused join page has no axe violations either", async ({ page }) => {
    await page.goto("/join");
    await joinForm(page).getByRole("button", { name: "Secure My Spot" }).click();
    await expect(joinForm(page).getByText("Enter your company name.")).toBeVisible();
    expect((await scan(page)).violations).toEqual([]);
  });
});
