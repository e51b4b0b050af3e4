import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { solve, type Challenge } from "../../lib/waitlist/challenge";
import { optionLabel, uniqueEmail, VALID_SIGNUP, type SignupFields } from "../../tests/fixtures/signup";

/** Reads the dialog's question ("7 × 3", "9 − 4") and works out the answer, as a visitor would. */
export async function answerFor(dialog: Locator): Promise<string> {
  const question = (await dialog.getByTestId("math-question").textContent()) ?? "";
  const match = /^(\d+) ([+−×]) (\d+)$/.exec(question.trim());
  if (!match) throw new Error(`Unexpected question: ${question}`);
  const [, left, operator, right] = match;
  const a = Number(left);
  const b = Number(right);
  return String(operator === "+" ? a + b : operator === "−" ? a - b : a * b);
}

/** The answer to a question as the API hands it out. */
export function answerForChallenge(challenge: Challenge): string {
  return String(solve(challenge));
}

export function waitlistDialog(page: Page): Locator {
  return page.getByRole("dialog", { name: /Join the Waitlist|You're On The List!/ });
}

/** What a visitor types and chooses: the shared valid sign-up (tests/fixtures/signup.ts), with its own email. */
export type Visitor = SignupFields;

export function uniqueVisitor(tag: string, domain = "example.com"): Visitor {
  return { ...VALID_SIGNUP, email: uniqueEmail(tag, domain) };
}

/** Fills the dialog's fields as a visitor would: by their labels, choosing options by what they read. */
export async function fillSignup(dialog: Locator, visitor: Visitor): Promise<void> {
  await dialog.getByLabel("Company name").fill(visitor.company_name);
  await dialog.getByLabel("Your name").fill(visitor.contact_name);
  await dialog.getByLabel("Email").fill(visitor.email);
  await dialog.getByLabel("Phone").fill(visitor.phone);
  await dialog.getByLabel("Business type").selectOption({ label: optionLabel("business_type", visitor.business_type) });
  await dialog.getByLabel("Company size").selectOption({ label: optionLabel("company_size", visitor.company_size) });
  if (visitor.notes) await dialog.getByLabel("Notes").fill(visitor.notes);
}

/**
 * A Join link opens the dialog once the page's script has run; until then it is a plain link to
 * the join page (which is what a visitor without JavaScript gets). Waits for the former.
 */
export async function enhanced(link: Locator): Promise<Locator> {
  await expect(link).toHaveAttribute("aria-haspopup", "dialog");
  return link;
}

export async function openFromHeader(page: Page): Promise<Locator> {
  await (await enhanced(page.getByRole("banner").getByRole("link", { name: "Join Waitlist" }))).click();
  const dialog = waitlistDialog(page);
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Asks the server for a question and answers it, as the dialog does. */
export async function answeredQuestion(request: APIRequestContext) {
  const response = await request.get("/api/waitlist/challenge");
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toContain("no-store");
  const { challenge, token } = (await response.json()) as { challenge: Challenge; token: string };
  return { challenge_token: token, challenge_answer: answerForChallenge(challenge) };
}

/** A sign-up through the API, as the dialog sends it: 201, or the test fails. */
export async function signUpThroughApi(request: APIRequestContext, visitor: Visitor): Promise<void> {
  const response = await request.post("/api/waitlist", { data: { ...visitor, ...(await answeredQuestion(request)) } });
  expect(response.status()).toBe(201);
}
