/**
 * The confirmation email and the visitor's own page, in Chromium against the
 * production server, which sends through a real SMTP server on loopback
 * (e2e/support/mail-catcher.ts): sign up through the dialog, read the email,
 * follow its link, confirm, remove.
 */
import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { storedEntry } from "./support/database";
import { confirmationEmailTo, entryLinkPath, mailsTo } from "./support/mail";
import { expect, test } from "./support/test";
import { optionLabel } from "../tests/fixtures/signup";
import { answerFor, fillSignup, openFromHeader, uniqueVisitor, type Visitor } from "./support/waitlist";

/**
 * A domain of their own: the site mails one domain at most 20 times an hour
 * (MAIL_MAX_PER_DOMAIN_PER_HOUR), and the other specs' example.com sign-ups can use that up
 * before these, which wait for their email, are sent (a rehearsal met exactly that).
 */
const MAIL_DOMAIN = "mail.example.com";

/** Signs up through the dialog as a visitor would, and returns the visitor. */
async function signUpThroughDialog(page: Page, visitor: Visitor): Promise<void> {
  await page.goto("/");
  const dialog = await openFromHeader(page);
  await fillSignup(dialog, visitor);
  await dialog.getByLabel("Security check").fill(await answerFor(dialog));
  await dialog.getByRole("button", { name: "Secure My Spot" }).click();
  await expect(dialog.getByRole("heading", { name: "You're On The List!" })).toBeVisible();
}

const scan = (page: Page) => new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21aa"]).analyze();

test.describe("the confirmation email and the visitor's page", () => {
  test("the email is DKIM-signed and offers one-click unsubscribe, which stops the site's mail and shows on the page", async ({
    page,
    request,
  }) => {
    const visitor = uniqueVisitor("oneclick", MAIL_DOMAIN);
    await signUpThroughDialog(page, visitor);
    const mail = await confirmationEmailTo(visitor.email);
    const header = (name: string) =>
      mail.headerLines
        .find((line) => line.key === name)
        ?.line.replace(/^[^:]+:\s*/, "")
        .replace(/\r?\n\s+/g, " ") ?? "";
    expect(header("dkim-signature")).toMatch(/\bd=fieldcrew\.app;/);
    expect(header("dkim-signature")).toMatch(/\bs=e2e;/);
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const address = /^<(.+)>$/.exec(header("list-unsubscribe"))![1]!;
    expect(new URL(address).pathname).toMatch(/^\/api\/waitlist\/unsubscribe\//);

    // What a mail program's button sends: a POST, no cookie, no page.
    const clicked = await request.post(address, { form: { "List-Unsubscribe": "One-Click" } });
    expect(clicked.status()).toBe(200);
    expect(storedEntry(visitor.email)).toMatchObject({ unsubscribed_at: expect.any(String) });
    await page.goto(entryLinkPath(mail));
    await expect(page.getByText(/you unsubscribed on/)).toBeVisible();
  });

  test("opening the unsubscribe address shows one button and nothing about the person; the button unsubscribes", async ({ page }) => {
    const visitor = uniqueVisitor("unsubpage", MAIL_DOMAIN);
    await signUpThroughDialog(page, visitor);
    const mail = await confirmationEmailTo(visitor.email);
    const listUnsubscribe = mail.headerLines.find((line) => line.key === "list-unsubscribe")!.line.replace(/\r?\n\s+/g, "");
    const address = /<(.+)>/.exec(listUnsubscribe)![1]!;

    const response = await page.goto(new URL(address).pathname);
    expect(new URL(page.url()).pathname).toMatch(/^\/waitlist\/unsubscribe\//);
    expect(response!.headers()["x-robots-tag"]).toBe("noindex, nofollow");
    expect(response!.headers()["referrer-policy"]).toBe("no-referrer");
    await expect(page.getByRole("heading", { name: "Stop emails from FieldCrew?" })).toBeVisible();
    const shown = await page.locator("main").innerText();
    for (const personal of [visitor.email, visitor.contact_name, visitor.company_name, visitor.phone])
      expect(shown).not.toContain(personal);
    await expect(page.getByRole("link", { name: /download/i })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /remove/i })).toHaveCount(0);
    expect(storedEntry(visitor.email)).toMatchObject({ unsubscribed_at: null });
    expect((await scan(page)).violations).toEqual([]);

    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("heading", { name: "You're unsubscribed" })).toBeVisible();
    expect(storedEntry(visitor.email)).toMatchObject({ unsubscribed_at: expect.any(String) });
  });

  test("sign up, get the email, follow its link, confirm, then remove: the row is gone and the link says so", async ({ page }) => {
    const visitor = { ...uniqueVisitor("mailflow", MAIL_DOMAIN), company_name: `Summit <b>Electric</b> & "Sons"` };
    await signUpThroughDialog(page, visitor);

    const mail = await confirmationEmailTo(visitor.email);
    expect(mail.subject).toBe("You're on the FieldCrew waitlist");
    expect(mail.from?.value).toEqual([{ name: "FieldCrew", address: "hello@fieldcrew.app" }]);
    expect(mail.to).toMatchObject({ value: [{ address: visitor.email, name: "" }] });
    // Only our words: the business type and size as our labels, nothing the visitor typed.
    expect(mail.text).toContain(`Business type: ${optionLabel("business_type")}`);
    expect(mail.text).toContain(`Company size: ${optionLabel("company_size")}`);
    expect(mail.text).toContain("within 48 hours");
    for (const part of [mail.raw, mail.text ?? "", String(mail.html)]) {
      expect(part).not.toContain("Summit");
      expect(part).not.toContain(visitor.contact_name);
    }

    const violations: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") violations.push(message.text());
    });
    const path = entryLinkPath(mail);
    const response = await page.goto(path);
    expect(response!.status()).toBe(200);
    const headers = response!.headers();
    expect(headers["referrer-policy"]).toBe("no-referrer");
    expect(headers["x-robots-tag"]).toBe("noindex, nofollow");
    expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+';/);
    expect(headers["content-security-policy"]).not.toContain("unsafe");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");
    await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");

    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're on the list, ${visitor.contact_name}`);
    const details = page.getByRole("region", { name: "Your entry" });
    await expect(details).toContainText(visitor.company_name); // as text, not markup
    await expect(details).toContainText(visitor.notes); // the page shows all we keep
    await expect(details.locator("b")).toHaveCount(0);
    await expect(details).toContainText("Email confirmedNot yet");

    await page.getByRole("button", { name: "Confirm my email" }).click();
    await expect(page.getByRole("status")).toHaveText("Thanks, your email address is confirmed.");
    await expect(details).toContainText(/Email confirmedYes, on /);
    await expect(page.getByRole("button", { name: "Confirm my email" })).toHaveCount(0);
    expect(storedEntry(visitor.email)!.confirmed_at).toEqual(expect.any(String));

    // Download my data: a file of what is held, the confirmation included.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download my data" }).click()]);
    expect(download.suggestedFilename()).toBe("fieldcrew-waitlist-entry.json");
    const data = JSON.parse(readFileSync(await download.path(), "utf8")) as {
      entry: Record<string, unknown>;
      notifications: { what: string; status: string }[];
    };
    expect(data.entry).toMatchObject({
      company_name: visitor.company_name,
      contact_name: visitor.contact_name,
      email: visitor.email,
      notes: visitor.notes,
      email_confirmed_at: expect.any(String),
    });
    expect(data.notifications).toContainEqual(
      expect.objectContaining({ what: "the confirmation email to your address", status: "delivered" }),
    );

    await page.getByText("I want to leave the waitlist").click();
    await page.getByRole("button", { name: "Remove me from the waitlist" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're off the waitlist");
    expect(storedEntry(visitor.email)).toBeUndefined();

    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This waitlist entry no longer exists");
    expect(violations).toEqual([]);
    expect(await mailsTo(visitor.email)).toHaveLength(1);
  });

  test("a forged or altered link gets a clear refusal page, with or without JavaScript, and changes nothing", async ({
    page,
    browser,
    baseURL,
  }) => {
    const visitor = uniqueVisitor("forged", MAIL_DOMAIN);
    await signUpThroughDialog(page, visitor);
    const path = entryLinkPath(await confirmationEmailTo(visitor.email));
    const altered = `${path.slice(0, -3)}${path.endsWith("abc") ? "xyz" : "abc"}`;
    const badLinks = [altered, "/waitlist/entry/00000000-0000-4000-8000-000000000000.forged", "/waitlist/entry/%3Cscript%3E"];
    // The document's own 404 aside: a script refused by the policy, an error thrown, a file not found.
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" && message.text().includes("Content Security Policy")) errors.push(message.text());
    });
    page.on("response", (response) => {
      if (response.status() >= 400 && response.request().resourceType() !== "document") errors.push(response.url());
    });
    for (const bad of badLinks) {
      const response = await page.goto(bad);
      expect(response!.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link is not valid");
    }
    // Its scripts run under the page's policy: nothing refused, nothing thrown.
    expect(errors).toEqual([]);
    // Whole HTML, not a shell filled in by script: the same without JavaScript, in the site's frame.
    const noScript = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const plain = await noScript.newPage();
    for (const bad of badLinks) {
      const response = await plain.goto(bad);
      expect(response!.status()).toBe(404);
      expect(response!.headers()).toMatchObject({ "referrer-policy": "no-referrer", "x-robots-tag": "noindex, nofollow" });
      await expect(plain.getByRole("heading", { level: 1 })).toHaveText("This link is not valid");
      await expect(plain.getByRole("banner")).toHaveCount(1);
    }
    await noScript.close();
    expect(storedEntry(visitor.email)).toMatchObject({ confirmed_at: null });
  });

  test("opening the link changes nothing, and the actions answer only to a POST", async ({ page, request }) => {
    const visitor = uniqueVisitor("scanner", MAIL_DOMAIN);
    await signUpThroughDialog(page, visitor);
    const path = entryLinkPath(await confirmationEmailTo(visitor.email));
    for (let i = 0; i < 3; i += 1) expect((await request.get(path)).status()).toBe(200); // a mail scanner, say
    expect((await request.get("/api/waitlist/entry")).status()).toBe(405);
    expect(storedEntry(visitor.email)).toMatchObject({ confirmed_at: null });
  });

  test("the visitor's page has no axe violations, and works with the keyboard alone", async ({ page }) => {
    const visitor = uniqueVisitor("keyboard", MAIL_DOMAIN);
    await signUpThroughDialog(page, visitor);
    await page.goto(entryLinkPath(await confirmationEmailTo(visitor.email)));
    expect((await scan(page)).violations).toEqual([]);

    const confirm = page.getByRole("button", { name: "Confirm my email" });
    for (let i = 0; i < 40 && !(await confirm.evaluate((element) => element === document.activeElement)); i += 1)
      await page.keyboard.press("Tab");
    await expect(confirm).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status")).toHaveText("Thanks, your email address is confirmed.");
    expect((await scan(page)).violations).toEqual([]);

    const leave = page.getByText("I want to leave the waitlist");
    for (let i = 0; i < 40 && !(await leave.evaluate((element) => element === document.activeElement)); i += 1)
      await page.keyboard.press("Tab");
    await expect(leave).toBeFocused();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Remove me from the waitlist" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're off the waitlist");
    expect((await scan(page)).violations).toEqual([]);
    expect(storedEntry(visitor.email)).toBeUndefined();
  });
});
