/**
 * The email field's help with addresses: "Did you mean …?" for a mistyped
 * domain (taken with a click or from the keyboard, announced, never blocking),
 * and the server's refusal of a throwaway domain shown on the field.
 */
import AxeBuilder from "@axe-core/playwright";
import { storedEntry } from "./support/database";
import { expect, test } from "./support/test";
import { answerFor, fillSignup, openFromHeader, uniqueVisitor } from "./support/waitlist";

/** A unique address at a mistyped Gmail domain. */
const mistyped = (tag: string) => uniqueVisitor(tag, "gmial.com").email;

test.describe("the email field", () => {
  test("suggests the likely domain, and one click takes it", async ({ page }) => {
    await page.goto("/");
    const dialog = await openFromHeader(page);
    const email = dialog.getByLabel("Email");
    const typed = mistyped("click");
    await email.fill(typed);
    await email.blur();
    const fixed = typed.replace("@gmial.com", "@gmail.com");
    const suggestion = dialog.getByRole("button", { name: fixed });
    await expect(suggestion).toBeVisible();
    // Announced to screen readers, and tied to the field it is about.
    await expect(dialog.locator("[aria-live=polite]").filter({ hasText: `Did you mean ${fixed}?` })).toHaveCount(1);
    await expect(email).toHaveAttribute("aria-describedby", /suggestion/);
    const scan = await new AxeBuilder({ page }).include("dialog").withTags(["wcag2a", "wcag2aa", "wcag21aa"]).analyze();
    expect(scan.violations).toEqual([]);

    await suggestion.click();
    await expect(email).toHaveValue(fixed);
    await expect(email).toBeFocused();
    await expect(dialog.getByText("Did you mean")).toHaveCount(0);
  });

  test("is taken from the keyboard: Tab reaches the suggestion, Enter accepts it, and the sign-up stores it", async ({ page }) => {
    await page.goto("/");
    const dialog = await openFromHeader(page);
    const visitor = uniqueVisitor("keys");
    await fillSignup(dialog, visitor);
    const typed = mistyped("keys");
    const email = dialog.getByLabel("Email");
    await email.fill("");
    await email.pressSequentially(typed);
    const fixed = typed.replace("@gmial.com", "@gmail.com");
    await expect(dialog.getByRole("button", { name: fixed })).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(dialog.getByRole("button", { name: fixed })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(email).toHaveValue(fixed);

    await dialog.getByLabel("Security check").fill(await answerFor(dialog));
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    await expect(dialog.getByRole("heading", { name: "You're On The List!" })).toBeVisible();
    expect(storedEntry(fixed)).toMatchObject({ email: fixed });
  });

  test("never blocks: ignored, the address is sent as typed", async ({ page }) => {
    await page.goto("/");
    const dialog = await openFromHeader(page);
    // (gmial.com itself is on the throwaway list, as typo domains often are: the server would refuse it.)
    const typed = uniqueVisitor("ignored", "yaho.com").email;
    await fillSignup(dialog, { ...uniqueVisitor("ignored"), email: typed });
    await dialog.getByLabel("Email").blur();
    await expect(dialog.getByText("Did you mean")).toBeVisible();
    await dialog.getByLabel("Security check").fill(await answerFor(dialog));
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    await expect(dialog.getByRole("heading", { name: "You're On The List!" })).toBeVisible();
    expect(storedEntry(typed)).toMatchObject({ email: typed });
  });

  test("shows the server's refusal of a throwaway domain on the field and takes the focus there", async ({ page }) => {
    await page.goto("/");
    const dialog = await openFromHeader(page);
    const throwaway = uniqueVisitor("throwaway", "mailinator.com");
    await fillSignup(dialog, throwaway);
    await dialog.getByLabel("Security check").fill(await answerFor(dialog));
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    await expect(dialog.getByText("Please use an address you read: we can't reach you at mailinator.com")).toBeVisible();
    await expect(dialog.getByRole("alert")).toHaveText("Please use another email address.");
    await expect(dialog.getByLabel("Email")).toBeFocused();
    await expect(dialog.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    expect(storedEntry(throwaway.email)).toBeUndefined();
  });

  test("on the join page, its spell checker is fetched when the field is first used, not with the page", async ({ page }) => {
    // The checker's list of domains (@zootools/email-spell-checker) names itself in the built chunk.
    const SPELL_CHECKER = "POPULAR_TLDS";
    const scripts: Promise<string>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") scripts.push(response.text().catch(() => ""));
    });
    const loaded = async () => (await Promise.all(scripts)).filter((text) => text.includes(SPELL_CHECKER)).length;

    await page.goto("/join");
    await page.waitForLoadState("networkidle");
    expect(scripts.length).toBeGreaterThan(0);
    expect(await loaded()).toBe(0);

    const email = page.getByLabel("Email");
    const typed = mistyped("join-page");
    await email.fill(typed);
    await email.blur();
    await expect(page.getByRole("button", { name: typed.replace("@gmial.com", "@gmail.com") })).toBeVisible();
    expect(await loaded()).toBe(1);
  });
});
