import { expect, type Locator, type Page } from "@playwright/test";
import { solve, type Challenge } from "../../lib/waitlist/challenge";

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

export type Visitor = { company: string; name: string; email: string; phone: string; notes?: string };

export function uniqueVisitor(tag: string, domain = "example.com"): Visitor {
  return {
    company: "Summit Electric Co.",
    name: "Alex Kim",
    email: `${tag}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@${domain}`,
    phone: "(555) 414-2020",
    notes: "Three vans, mostly residential service.",
  };
}

export async function fillSignup(dialog: Locator, visitor: Visitor): Promise<void> {
  await dialog.getByLabel("Company name").fill(visitor.company);
  await dialog.getByLabel("Your name").fill(visitor.name);
  await dialog.getByLabel("Email").fill(visitor.email);
  await dialog.getByLabel("Phone").fill(visitor.phone);
  await dialog.getByLabel("Business type").selectOption({ label: "Electrical" });
  await dialog.getByLabel("Company size").selectOption({ label: "6-10 employees" });
  if (visitor.notes) await dialog.getByLabel("Notes").fill(visitor.notes);
}

export async function openFromHeader(page: Page): Promise<Locator> {
  await page.getByRole("banner").getByRole("button", { name: "Join Waitlist" }).click();
  const dialog = waitlistDialog(page);
  await expect(dialog).toBeVisible();
  return dialog;
}

/** A visitor's details as the API's JSON fields. */
export function signupFields(visitor: Visitor) {
  return {
    company_name: visitor.company,
    contact_name: visitor.name,
    email: visitor.email,
    phone: visitor.phone,
    business_type: "electrical",
    company_size: "6-10",
    notes: visitor.notes ?? null,
  };
}
