import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { storedEntry, withTestDatabase } from "./support/database";
import { answerFor, answerForChallenge, enhanced, fillSignup, openFromHeader, uniqueVisitor, waitlistDialog } from "./support/waitlist";

const MESSAGES = {
  wrongAnswer: "Please solve the math challenge correctly.",
  duplicate: "This email is already on our waitlist. We'll be in touch soon!",
  generic: "Something went wrong. Please try again or contact us directly.",
  newQuestion: "That security question expired. Please answer the new one.",
};

/** Counts requests the page sends to the waitlist endpoint. */
function countSignupRequests(page: Page): { count: number } {
  const counter = { count: 0 };
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/waitlist") counter.count += 1;
  });
  return counter;
}

test.describe("opening and closing the dialog", () => {
  const openers: [string, string, (page: Page) => ReturnType<Page["getByRole"]>][] = [
    ["the navigation", "/", (page) => page.getByRole("banner").getByRole("link", { name: "Join Waitlist" })],
    [
      "the hero",
      "/",
      (page) => page.getByRole("region", { name: /Run your whole service business/ }).getByRole("link", { name: "Join the Waitlist" }),
    ],
    [
      "the closing call to action",
      "/",
      (page) => page.getByRole("region", { name: "Claim your founding-member spot" }).getByRole("link", { name: "Join the Waitlist" }),
    ],
    ["a pricing plan", "/", (page) => page.locator("#pricing").getByRole("link", { name: "Join Waitlist" }).first()],
    [
      "/about",
      "/about",
      (page) => page.getByRole("region", { name: "Want to build it with us?" }).getByRole("link", { name: "Join the Waitlist" }),
    ],
    [
      "/careers",
      "/careers",
      (page) => page.getByRole("region", { name: "Run a service business?" }).getByRole("link", { name: "Join the Waitlist" }),
    ],
  ];

  for (const [where, path, opener] of openers) {
    test(`opens from ${where}, closes with its button and returns focus`, async ({ page }) => {
      await page.goto(path);
      const button = await enhanced(opener(page));
      await button.click();
      const dialog = waitlistDialog(page);
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole("heading", { name: "Join the Waitlist" })).toBeVisible();
      await expect(dialog).toContainText("Only 47 spots left this month");
      await expect(dialog.getByLabel("Company name")).toBeFocused();
      await dialog.getByRole("button", { name: "Close" }).click();
      await expect(dialog).toBeHidden();
      await expect(button).toBeFocused();
    });
  }

  test("closes with Escape, keeps focus inside while open, and returns focus to the opener", async ({ page }) => {
    await page.goto("/");
    const opener = await enhanced(page.getByRole("banner").getByRole("link", { name: "Join Waitlist" }));
    await opener.focus();
    await page.keyboard.press("Enter");
    const dialog = waitlistDialog(page);
    await expect(dialog).toBeVisible();
    for (let i = 0; i < 25; i += 1) {
      await page.keyboard.press("Tab");
      const inside = await page.evaluate(() => {
        const active = document.activeElement;
        return !active || active === document.body || !!active.closest("dialog");
      });
      expect(inside, `focus left the dialog after ${i + 1} tabs`).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test("shows readable labels and the spec's values in the selects, with email and tel types", async ({ page }) => {
    await page.goto("/");
    const dialog = await openFromHeader(page);
    await expect(dialog.getByLabel("Email")).toHaveAttribute("type", "email");
    await expect(dialog.getByLabel("Phone")).toHaveAttribute("type", "tel");
    const values = (name: string) =>
      dialog
        .getByLabel(name)
        .locator("option:not([disabled])")
        .evaluateAll((options) => options.map((o) => `${(o as HTMLOptionElement).value}=${o.textContent}`));
    expect(await values("Business type")).toEqual([
      "hvac=HVAC",
      "plumbing=Plumbing",
      "electrical=Electrical",
      "general_contractor=General Contractor",
      "landscaping=Landscaping",
      "other=Other",
    ]);
    expect(await values("Company size")).toEqual([
      "1-5=1-5 employees",
      "6-10=6-10 employees",
      "11-25=11-25 employees",
      "26-50=26-50 employees",
      "50+=50+ employees",
    ]);
  });
});

test.describe("the security check", () => {
  test("a wrong answer shows the message, keeps the question and sends nothing", async ({ page }) => {
    const requests = countSignupRequests(page);
    await page.goto("/");
    const dialog = await openFromHeader(page);
    await fillSignup(dialog, uniqueVisitor("wrong"));
    const question = await dialog.getByTestId("math-question").textContent();
    const wrong = String(Number(await answerFor(dialog)) + 1);
    await dialog.getByLabel("Security check").fill(wrong);
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();

    await expect(dialog.getByText(MESSAGES.wrongAnswer)).toBeVisible();
    await expect(dialog.getByLabel("Security check")).toBeFocused();
    await expect(dialog.getByTestId("math-question")).toHaveText(question!);
    await page.waitForTimeout(300);
    expect(requests.count).toBe(0);
  });

  test("the regenerate button changes the question, and each opening brings a new one", async ({ page }) => {
    await page.goto("/");
    const dialog = await openFromHeader(page);
    const question = dialog.getByTestId("math-question");
    for (let i = 0; i < 5; i += 1) {
      const before = await question.textContent();
      await dialog.getByRole("button", { name: "New question" }).click();
      await expect(question).not.toHaveText(before!);
    }
    const seen = new Set<string>();
    for (let i = 0; i < 6; i += 1) {
      seen.add((await question.textContent())!);
      await page.keyboard.press("Escape");
      await page.getByRole("banner").getByRole("link", { name: "Join Waitlist" }).click();
    }
    // Six openings drawing from 300 questions: the chance that all six repeat one is negligible.
    expect(seen.size).toBeGreaterThan(1);
  });
});

test.describe("submitting through the real endpoint", () => {
  test("success stores the sign-up and shows the confirmation; reopening shows it again", async ({ page }) => {
    await page.goto("/");
    const dialog = await openFromHeader(page);
    const visitor = uniqueVisitor("success");
    await fillSignup(dialog, visitor);
    await dialog.getByLabel("Security check").fill(await answerFor(dialog));

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/waitlist", async (route) => {
      await held; // hold the real request so the submitting state can be seen
      await route.continue();
    });
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    const submitting = dialog.getByRole("button", { name: "Securing Your Spot..." });
    await expect(submitting).toBeDisabled();
    release();

    await expect(dialog.getByRole("heading", { name: "You're On The List!" })).toBeVisible();
    await expect(dialog).toContainText("within 48 hours");
    expect(storedEntry(visitor.email)).toMatchObject({
      company_name: visitor.company_name,
      business_type: visitor.business_type,
      company_size: visitor.company_size,
      notes: visitor.notes,
    });

    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("banner").getByRole("link", { name: "Join Waitlist" }).click();
    await expect(waitlistDialog(page).getByRole("heading", { name: "You're On The List!" })).toBeVisible();
    await waitlistDialog(page).getByRole("button", { name: "Add another company" }).click();
    await expect(waitlistDialog(page).getByLabel("Company name")).toHaveValue("");
  });

  test("on a phone, a long address wraps inside the confirmation instead of running past its edge", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    const dialog = await openFromHeader(page);
    const visitor = uniqueVisitor("a-long-mailbox-name-that-is-one-word");
    await fillSignup(dialog, visitor);
    await dialog.getByLabel("Security check").fill(await answerFor(dialog));
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();

    const confirmation = dialog.getByText(visitor.email, { exact: false });
    await expect(confirmation).toBeVisible();
    const fits = await confirmation.evaluate((paragraph) => paragraph.scrollWidth <= paragraph.clientWidth);
    expect(fits).toBe(true);
    const [text, box] = [await confirmation.boundingBox(), await dialog.boundingBox()];
    expect(text!.x + text!.width).toBeLessThanOrEqual(box!.x + box!.width);
  });

  test("a duplicate email shows the already-on-the-list message, keeps the form, and brings a new question", async ({ page }) => {
    const visitor = uniqueVisitor("dup");
    await page.goto("/");
    let question = "";
    for (const attempt of [1, 2]) {
      const dialog = await openFromHeader(page);
      if (attempt === 2) await waitlistDialog(page).getByRole("button", { name: "Add another company" }).click();
      await fillSignup(dialog, { ...visitor, email: attempt === 2 ? visitor.email.toUpperCase() : visitor.email });
      await dialog.getByLabel("Security check").fill(await answerFor(dialog));
      question = (await dialog.getByTestId("math-question").textContent()) ?? "";
      await dialog.getByRole("button", { name: "Secure My Spot" }).click();
      if (attempt === 1) {
        await expect(dialog.getByRole("heading", { name: "You're On The List!" })).toBeVisible();
        await dialog.getByRole("button", { name: "Done" }).click();
      }
    }
    const dialog = waitlistDialog(page);
    await expect(dialog.getByRole("alert").getByText(MESSAGES.duplicate, { exact: true })).toBeVisible();
    // Whoever is already on the list may have lost the email with their link.
    await expect(dialog.getByRole("alert").getByRole("link", { name: "Email me my link again" })).toHaveAttribute("href", "/waitlist/link");
    await expect(dialog.getByLabel("Email")).toHaveValue(visitor.email.toUpperCase());
    await expect(dialog.getByLabel("Company name")).toBeEditable();

    // The duplicate used up its question: a different one replaces it, the answer is cleared and the
    // focus stays where it was; with another address and the new answer, the sign-up goes through.
    await expect(dialog.getByTestId("math-question")).not.toHaveText(question);
    await expect(dialog.getByLabel("Security check")).toHaveValue("");
    await expect(dialog.getByLabel("Security check")).not.toBeFocused();
    await dialog.getByLabel("Email").fill(uniqueVisitor("dup-fixed").email);
    await dialog.getByLabel("Security check").fill(await answerFor(dialog));
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    await expect(dialog.getByRole("heading", { name: "You're On The List!" })).toBeVisible();
  });

  test("a server failure (a trigger in the test database refuses the insert: a real 500) shows the generic message and keeps everything typed", async ({
    page,
  }) => {
    // Only addresses at fail.example are refused, so other tests running beside this one are unaffected.
    withTestDatabase((sqlite) =>
      sqlite.exec(`CREATE TRIGGER IF NOT EXISTS e2e_refuse_fail_example BEFORE INSERT ON waitlist_entries
                   WHEN NEW.email_normalized LIKE '%@fail.example' BEGIN SELECT RAISE(ABORT, 'refused for the e2e test'); END`),
    );
    await page.goto("/careers");
    const dialog = await openFromHeader(page);
    const visitor = uniqueVisitor("boom", "fail.example");
    await fillSignup(dialog, visitor);
    const answer = await answerFor(dialog);
    await dialog.getByLabel("Security check").fill(answer);
    const response = page.waitForResponse("**/api/waitlist");
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    expect((await response).status()).toBe(500);

    await expect(dialog.getByRole("alert")).toHaveText(MESSAGES.generic);
    await expect(dialog.getByLabel("Company name")).toHaveValue(visitor.company_name);
    await expect(dialog.getByLabel("Email")).toHaveValue(visitor.email);
    await expect(dialog.getByLabel("Notes")).toHaveValue(visitor.notes!);
    await expect(dialog.getByLabel("Security check")).toHaveValue(answer);
    await expect(dialog.getByRole("button", { name: "Secure My Spot" })).toBeEnabled();
    expect(storedEntry(visitor.email)).toBeUndefined();
  });

  test("a question the server no longer accepts brings a new one, then the sign-up goes through", async ({ page, request }) => {
    // A question already used for a sign-up, as a second tab left open would hold.
    const used = await (await request.get("/api/waitlist/challenge")).json();
    const usedAnswer = answerForChallenge(used.challenge);
    const first = await request.post("/api/waitlist", {
      data: { ...uniqueVisitor("first"), challenge_token: used.token, challenge_answer: usedAnswer },
    });
    expect(first.status()).toBe(201);

    await page.goto("/");
    const dialog = await openFromHeader(page);
    const visitor = uniqueVisitor("stale");
    await fillSignup(dialog, visitor);
    const firstQuestion = await dialog.getByTestId("math-question").textContent();
    await dialog.getByLabel("Security check").fill(await answerFor(dialog));
    // Swap in the used token on the way out; the real server then refuses it.
    await page.route(
      "**/api/waitlist",
      async (route) => {
        const body = JSON.parse(route.request().postData() ?? "{}");
        await route.continue({ postData: JSON.stringify({ ...body, challenge_token: used.token, challenge_answer: usedAnswer }) });
      },
      { times: 1 },
    );
    const refused = page.waitForResponse("**/api/waitlist");
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    expect((await refused).status()).toBe(400);

    await expect(dialog.getByRole("alert")).toHaveText(MESSAGES.newQuestion);
    await expect(dialog.getByTestId("math-question")).not.toHaveText(firstQuestion!);
    await expect(dialog.getByLabel("Security check")).toHaveValue("");
    await expect(dialog.getByLabel("Email")).toHaveValue(visitor.email);
    expect(storedEntry(visitor.email)).toBeUndefined();

    await dialog.getByLabel("Security check").fill(await answerFor(dialog));
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    await expect(dialog.getByRole("heading", { name: "You're On The List!" })).toBeVisible();
    expect(storedEntry(visitor.email)).toBeDefined();
  });

  test("too many attempts from one address (a real 429) shows the generic message", async ({ page }) => {
    await page.goto("/");
    const dialog = await openFromHeader(page);
    const visitor = uniqueVisitor("limited");
    await fillSignup(dialog, visitor);
    // Five attempts from this test's address use up its allowance (5 per 10 minutes).
    for (let i = 0; i < 5; i += 1) {
      const status = await page.evaluate(
        async () => (await fetch("/api/waitlist", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).status,
      );
      expect(status).toBe(400);
    }
    await dialog.getByLabel("Security check").fill(await answerFor(dialog));
    const limited = page.waitForResponse("**/api/waitlist");
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    expect((await limited).status()).toBe(429);
    await expect(dialog.getByRole("alert")).toHaveText(MESSAGES.generic);
    expect(storedEntry(visitor.email)).toBeUndefined();
  });

  test("the honeypot cannot be seen or reached with the keyboard", async ({ page }) => {
    await page.goto("/");
    const dialog = await openFromHeader(page);
    const honeypot = dialog.locator('input[name="website"]');
    await expect(honeypot).toHaveCount(1);
    await expect(honeypot).toBeHidden();
    const focused: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      await page.keyboard.press("Tab");
      focused.push(await page.evaluate(() => document.activeElement?.getAttribute("name") ?? document.activeElement?.tagName ?? ""));
    }
    expect(focused).not.toContain("website");
  });

  test("hostile but valid values are stored exactly and shown as text, never run", async ({ page }) => {
    await page.goto("/");
    const dialog = await openFromHeader(page);
    const visitor = {
      ...uniqueVisitor("hostile"),
      company_name: `<script>window.__pwned = "company"</script> O'Brien & "Sons" 🔧`,
      contact_name: `<img src=x onerror="window.__pwned = 'name'">`,
      notes: `'); DROP TABLE waitlist_entries; -- <b>bold</b>`,
    };
    await fillSignup(dialog, visitor);
    await dialog.getByLabel("Security check").fill(await answerFor(dialog));
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();

    const confirmation = dialog.getByText(/has a founding-member spot waiting/);
    await expect(confirmation).toContainText(visitor.company_name);
    await expect(confirmation).toContainText(visitor.contact_name);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await dialog.locator("script, img").count()).toBe(0);
    expect(storedEntry(visitor.email)).toMatchObject({
      company_name: visitor.company_name,
      contact_name: visitor.contact_name,
      notes: visitor.notes,
    });
  });

  test("records the page and the visit's campaign with the sign-up", async ({ page }) => {
    await page.goto("/?utm_source=newsletter&utm_medium=email&utm_campaign=founding%20launch");
    // Move to another page the way a visitor would; the campaign stays with the visit.
    await page.getByRole("contentinfo").getByRole("link", { name: "Careers" }).click();
    await expect(page).toHaveURL(/\/careers$/);
    const dialog = await openFromHeader(page);
    const visitor = uniqueVisitor("campaign");
    await fillSignup(dialog, visitor);
    await dialog.getByLabel("Security check").fill(await answerFor(dialog));
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    await expect(dialog.getByRole("heading", { name: "You're On The List!" })).toBeVisible();
    expect(storedEntry(visitor.email)).toMatchObject({
      source_page: "/careers",
      utm_source: "newsletter",
      utm_medium: "email",
      utm_campaign: "founding launch",
    });
  });

  test("a network failure shows the generic message", async ({ page }) => {
    await page.goto("/about");
    const dialog = await openFromHeader(page);
    await fillSignup(dialog, uniqueVisitor("offline"));
    await dialog.getByLabel("Security check").fill(await answerFor(dialog));
    await page.route("**/api/waitlist", (route) => route.abort("internetdisconnected"));
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(MESSAGES.generic);
  });

  test("missing fields are named next to each field and nothing is sent", async ({ page }) => {
    const requests = countSignupRequests(page);
    await page.goto("/");
    const dialog = await openFromHeader(page);
    await dialog.getByLabel("Email").fill("not-an-email");
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    await expect(dialog.getByLabel("Company name")).toBeFocused();
    await expect(dialog.getByLabel("Company name")).toHaveAccessibleDescription("Enter your company name.");
    await expect(dialog.getByLabel("Email")).toHaveAccessibleDescription("Enter a valid email address, like owner@example.com.");
    await expect(dialog.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    expect(requests.count).toBe(0);
  });
});

test("keyboard only: open, fill, submit and close without a mouse", async ({ page }) => {
  await page.goto("/");
  // From the top of the page: skip link, logo, then the header's button (nav links are hidden below md).
  await page.setViewportSize({ width: 1280, height: 800 });
  const opener = await enhanced(page.getByRole("banner").getByRole("link", { name: "Join Waitlist" }));
  for (let i = 0; i < 12 && !(await opener.evaluate((el) => el === document.activeElement)); i += 1) {
    await page.keyboard.press("Tab");
  }
  await expect(opener).toBeFocused();
  await page.keyboard.press("Enter");
  const dialog = waitlistDialog(page);
  await expect(dialog.getByLabel("Company name")).toBeFocused();

  const visitor = uniqueVisitor("keyboard");
  await page.keyboard.type(visitor.company_name);
  await page.keyboard.press("Tab");
  await page.keyboard.type(visitor.contact_name);
  await page.keyboard.press("Tab");
  await page.keyboard.type(visitor.email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(visitor.phone);
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("Business type")).toBeFocused();
  await dialog.getByLabel("Business type").press("ArrowDown"); // first choice: HVAC
  await page.keyboard.press("Tab");
  await dialog.getByLabel("Company size").press("ArrowDown"); // first choice: 1-5
  await page.keyboard.press("Tab"); // notes
  await page.keyboard.press("Tab"); // security check
  await expect(dialog.getByLabel("Security check")).toBeFocused();
  await page.keyboard.type(await answerFor(dialog));
  await page.keyboard.press("Enter");

  await expect(dialog.getByRole("heading", { name: "You're On The List!" })).toBeVisible();
  expect(storedEntry(visitor.email)).toMatchObject({ business_type: "hvac", company_size: "1-5" });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});
