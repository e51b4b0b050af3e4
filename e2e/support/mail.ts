import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { simpleParser, type ParsedMail } from "mailparser";
import { E2E_MAIL_DIR } from "./config";

type ReceivedMail = ParsedMail & { raw: string };

/** Every message the test SMTP server has kept for `address`, oldest first. */
export async function mailsTo(address: string): Promise<ReceivedMail[]> {
  const files = readdirSync(E2E_MAIL_DIR)
    .filter((file) => file.endsWith(".eml"))
    .sort();
  const mails = await Promise.all(
    files.map(async (file) => {
      const raw = readFileSync(path.join(E2E_MAIL_DIR, file), "utf8");
      return Object.assign(await simpleParser(raw), { raw });
    }),
  );
  const wanted = address.toLowerCase();
  return mails.filter((mail) => [mail.to].flat().some((to) => to?.value.some((one) => one.address?.toLowerCase() === wanted)));
}

/** Waits for the one email the site sends a new sign-up, and returns it. */
export async function confirmationEmailTo(address: string): Promise<ReceivedMail> {
  await expect.poll(async () => (await mailsTo(address)).length, { timeout: 15_000 }).toBe(1);
  return (await mailsTo(address))[0]!;
}

/** The path of the link in the email's text (the test server's own origin is the tests' baseURL). */
export function entryLinkPath(mail: ReceivedMail): string {
  const link = /https?:\/\/\S+\/waitlist\/entry\/\S+/.exec(mail.text ?? "")?.[0];
  if (!link) throw new Error(`no entry link in:\n${mail.text}`);
  return new URL(link).pathname;
}
