/**
 * The console's update form (lib/updates/composer.ts) behind its guard, on a real database and a
 * real SMTP server: Check counts and previews; the test goes to the operator alone, marked, with
 * the site's link and nobody's unsubscribe; Send queues once for one form however often it is
 * posted, and gives the form a new key; with mail off, a test or a send is refused and nothing stored.
 */
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { answerComposer, emptyComposer } from "@/lib/updates/composer";
import { MAIL_OFF } from "@/lib/updates/updates";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { setUpTestDatabase } from "../support/database";
import { mailCatcherForTests } from "../support/mail-catcher";
import { validSignup } from "../support/requests";

setUpTestDatabase();
const mail = mailCatcherForTests();
const operator = { email: "ana@fieldcrew.app", actor: { email: "ana@fieldcrew.app", operatorId: "op-ana" } };
const SITE = "https://fieldcrew.app";

const services = (mailOn = true) => ({
  database: getDatabase(),
  sender: mailOn ? { smtpUrl: mail.smtpUrl(), from: "FieldCrew <hello@fieldcrew.app>", dkim: null } : null,
  siteUrl: SITE,
});

function form(values: Record<string, string>, requestKey = "form-key"): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries({ requestKey, ...values })) data.set(key, value);
  return data;
}

async function join(campaign: string): Promise<void> {
  const stored = await addToWaitlist(waitlistSignupSchema.parse(validSignup({ utm_campaign: campaign, company_name: "Harbor Plumbing" })));
  if (stored.outcome !== "created") throw new Error(stored.outcome);
}

const writing = (campaign: string) => ({ subject: "News for {{company}}", body: "Hello {{name}},\n\nNews.", campaign });

describe("the update form", () => {
  it("checks: the count and the text as a real entry of the segment gets it", async () => {
    await join("form-check");
    await join("form-check");
    const state = await answerComposer(form(writing("form-check")), "check", operator, services());
    expect(state.problems).toEqual({});
    expect(state.checked).toMatchObject({ count: 2, preview: { confirmed: false } });
    expect(state.checked!.preview!.email.subject).toBe("News for your company");
    expect(mail.received()).toHaveLength(0);
  });

  it("sends a test to the operator alone, marked, with the site's link and no one's unsubscribe", async () => {
    await join("form-test");
    const state = await answerComposer(form(writing("form-test")), "test", operator, services());
    expect(state.tested).toBe(operator.email);
    const [raw] = mail.received();
    const message = await simpleParser(raw!);
    expect(message.to && !Array.isArray(message.to) && message.to.value.map((to) => to.address)).toEqual([operator.email]);
    expect(message.subject).toBe("[Test] News for your company");
    expect(message.text).toContain(`${SITE}/`);
    expect(message.text).not.toContain("/waitlist/entry/");
    expect(raw!.toString()).not.toMatch(/^List-Unsubscribe/im);
  });

  it("sends once for one form however often it is posted, then gives the form a new key", async () => {
    await join("form-send");
    const first = await answerComposer(form(writing("form-send"), "key-1"), "send", operator, services());
    const again = await answerComposer(form(writing("form-send"), "key-1"), "send", operator, services());
    expect(first.sent).toMatchObject({ queued: 1, created: true });
    expect(again.sent).toMatchObject({ id: first.sent!.id, created: false });
    expect(first.requestKey).not.toBe("key-1");
    expect(await getDatabase().outboxMessage.count({ where: { updateId: first.sent!.id } })).toBe(1);
    expect(emptyComposer().requestKey).not.toBe(emptyComposer().requestKey);
  });

  it("with mail off refuses a test and a send, and stores nothing; bad input is said per field", async () => {
    await join("form-off");
    const before = await getDatabase().mailUpdate.count();
    for (const intent of ["test", "send"] as const) {
      const state = await answerComposer(form(writing("form-off")), intent, operator, services(false));
      expect(state.problems.form).toBe(MAIL_OFF);
    }
    expect(await getDatabase().mailUpdate.count()).toBe(before);
    const bad = await answerComposer(form({ subject: "", body: "<p>Hi</p>", type: "roofing" }), "send", operator, services());
    expect(bad.problems).toMatchObject({ subject: "Write a subject.", segment: expect.stringMatching(/^type: /) });
    expect(bad.problems.body).toMatch(/plain text/);
    expect(bad.values).toMatchObject({ subject: "", body: "<p>Hi</p>", type: "roofing" });
  });
});
