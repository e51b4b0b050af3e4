import { execFileSync } from "node:child_process";
import { expect, type Page } from "@playwright/test";
import { E2E_DATABASE_URL } from "./config";

let sequence = 0;

/** An operator address of its own for each test. */
export function uniqueOperatorEmail(tag: string): string {
  sequence += 1;
  return `${tag}-${process.pid}-${sequence}-${Date.now()}@fieldcrew.test`;
}

/** Runs `npm run waitlist -- <args>` against the test server's database, as an operator at the shell would. */
export function waitlistCli(args: string[], siteUrl: string): string {
  return execFileSync(process.execPath, ["scripts/waitlist.mjs", ...args], {
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL, SITE_URL: siteUrl, SMTP_URL: "", MAIL_FROM: "" },
    encoding: "utf8",
  });
}

/** `operators add` (an admin unless told otherwise): the enrolment link it prints. */
export function inviteOperator(email: string, siteUrl: string, role: "admin" | "member" = "admin"): string {
  const printed = waitlistCli(["operators", "add", email, "--role", role], siteUrl);
  const link = /https?:\/\/\S+\/operator\/enrol#\S+/.exec(printed)?.[0];
  if (!link) throw new Error(`No enrolment link in:\n${printed}`);
  return link;
}

/**
 * A passkey authenticator for this page's browser context (Chrome DevTools
 * Protocol's WebAuthn domain): it answers the browser's passkey prompts as a
 * phone's or laptop's screen lock would, with the user verified.
 */
export async function addVirtualAuthenticator(page: Page): Promise<{ forgetPasskeys: () => Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  // As if the device were wiped: the site still has the passkeys, the device no longer does.
  return { forgetPasskeys: async () => void (await cdp.send("WebAuthn.clearCredentials", { authenticatorId })) };
}

/** Invites an operator and enrols a passkey for them from the link: signed in, on the follow-up queue. */
export async function enrolNewOperator(page: Page, tag: string, siteUrl: string, role: "admin" | "member" = "admin"): Promise<string> {
  return (await enrolWithAuthenticator(page, tag, siteUrl, role)).email;
}

/** enrolNewOperator, with the device's authenticator at hand. */
export async function enrolWithAuthenticator(page: Page, tag: string, siteUrl: string, role: "admin" | "member" = "admin") {
  const email = uniqueOperatorEmail(tag);
  const link = inviteOperator(email, siteUrl, role);
  const authenticator = await addVirtualAuthenticator(page);
  await page.goto(link);
  await page.getByRole("button", { name: "Create my passkey" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Follow-up queue" })).toBeVisible();
  return { email, authenticator };
}
