/**
 * "Email me my link again" (lib/waitlist/link-again.ts) on a real SQLite file: the same
 * answer for every well-formed address, the link owed only after the answer and only to
 * an address on the list, at most once an hour and three times a day. (The email itself,
 * through a real SMTP server, is e2e/link-again.spec.ts.)
 */
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { CLIENT_ADDRESS_HEADER } from "@/lib/security/client-address";
import { SharedRateLimiter } from "@/lib/security/rate-limit";
import { LINK_AGAIN_EVENT } from "@/lib/waitlist/confirmation-email";
import {
  LINK_AGAIN_ANSWER,
  LINK_AGAIN_RATE_LIMITED,
  oweLinkAgain,
  requestLinkAgain,
  type LinkAgainContext,
} from "@/lib/waitlist/link-again";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { validSignup } from "../fixtures/signup";
import { setUpTestDatabase } from "../support/database";

setUpTestDatabase();

const MINUTE = 60_000;
const T0 = new Date("2026-11-24T09:00:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);

async function signedUp(email: string) {
  const result = await addToWaitlist(waitlistSignupSchema.parse(validSignup({ email })));
  if (result.outcome !== "created") throw new Error(result.outcome);
  return result.entry.id;
}

const linksOwed = () => getDatabase().outboxMessage.findMany({ where: { event: LINK_AGAIN_EVENT }, orderBy: { createdAt: "asc" } });

function context(overrides: Partial<LinkAgainContext> = {}) {
  const later: (() => Promise<void>)[] = [];
  const prompted = { count: 0 };
  const ctx: LinkAgainContext = {
    headers: new Headers({ [CLIENT_ADDRESS_HEADER]: "203.0.113.9" }),
    limiter: new SharedRateLimiter({ max: 1_000, windowMs: 600_000 }),
    deliveries: ["email"],
    deliverSoon: () => (prompted.count += 1),
    afterResponse: (work) => later.push(work),
    database: getDatabase,
    now: T0,
    ...overrides,
  };
  /** Runs what was left for after the answer, to its end. */
  const afterAnswer = () => Promise.all(later.splice(0).map((work) => work()));
  return { ctx, afterAnswer, prompted };
}

const ask = (email: string, ctx: LinkAgainContext) => {
  const form = new FormData();
  form.set("email", email);
  return requestLinkAgain(form, ctx);
};

describe("owing a link again", () => {
  it("owes one email to the entry of an address on the list (any spelling of its mailbox), with its domain's throttle key", async () => {
    const id = await signedUp("owner@summit.example");
    expect(await oweLinkAgain(getDatabase(), "Owner+lost@Summit.example", T0)).toBe(true);
    const [row] = await linksOwed();
    expect(row).toMatchObject({
      entryId: id,
      kind: "email",
      status: "pending",
      event: LINK_AGAIN_EVENT,
      throttleKey: "summit.example",
      payload: null,
    });
  });

  it("owes nothing to an address that is not on the list", async () => {
    await signedUp("owner@summit.example");
    expect(await oweLinkAgain(getDatabase(), "stranger@summit.example", T0)).toBe(false);
    expect(await linksOwed()).toHaveLength(0);
  });

  it("owes at most one an hour and three a day per address", async () => {
    await signedUp("owner@summit.example");
    const owe = (minutes: number) => oweLinkAgain(getDatabase(), "owner@summit.example", at(minutes));
    expect(await owe(0)).toBe(true);
    expect(await owe(59)).toBe(false);
    expect(await owe(61)).toBe(true);
    expect(await owe(125)).toBe(true);
    // Three in the last day: the fourth waits until the first is a day old.
    expect(await owe(200)).toBe(false);
    expect(await owe(24 * 60 - 1)).toBe(false);
    expect(await owe(24 * 60 + 1)).toBe(true);
    expect(await linksOwed()).toHaveLength(4);
  });

  it("counts each address on its own", async () => {
    await signedUp("owner@summit.example");
    await signedUp("office@summit.example");
    expect(await oweLinkAgain(getDatabase(), "owner@summit.example", T0)).toBe(true);
    expect(await oweLinkAgain(getDatabase(), "office@summit.example", T0)).toBe(true);
  });
});

describe("the page's post", () => {
  it("gives the same answer for an address on the list and one that is not, and looks neither up before answering", async () => {
    await signedUp("owner@summit.example");
    const known = context();
    const unknown = context();
    const answers = [await ask("owner@summit.example", known.ctx), await ask("stranger@summit.example", unknown.ctx)];
    expect(answers.map((answer) => answer.answer)).toEqual([LINK_AGAIN_ANSWER, LINK_AGAIN_ANSWER]);
    expect(answers.map((answer) => answer.error)).toEqual([undefined, undefined]);
    // Answered: nothing owed yet for either, so the answer's time cannot depend on the list.
    expect(await linksOwed()).toHaveLength(0);

    await known.afterAnswer();
    await unknown.afterAnswer();
    expect(await linksOwed()).toHaveLength(1);
    expect(known.prompted.count).toBe(1);
    expect(unknown.prompted.count).toBe(0);
  });

  it("asks for a valid address and does nothing else", async () => {
    const { ctx, afterAnswer } = context();
    expect(await ask("not an address", ctx)).toEqual({
      email: "not an address",
      error: "Enter a valid email address, like owner@example.com.",
    });
    expect(await ask("", ctx)).toMatchObject({ error: "Enter your email address." });
    await afterAnswer();
    expect(await linksOwed()).toHaveLength(0);
  });

  it("sends nothing when the site sends no email (no SMTP_URL), with the same answer", async () => {
    await signedUp("owner@summit.example");
    const { ctx, afterAnswer } = context({ deliveries: ["webhook"] });
    expect((await ask("owner@summit.example", ctx)).answer).toBe(LINK_AGAIN_ANSWER);
    await afterAnswer();
    expect(await linksOwed()).toHaveLength(0);
  });

  it("counts against the network's form posts: past the limit, it says so and owes nothing", async () => {
    await signedUp("owner@summit.example");
    const { ctx, afterAnswer } = context({ limiter: new SharedRateLimiter({ max: 1, windowMs: 600_000 }) });
    expect((await ask("stranger@summit.example", ctx)).answer).toBe(LINK_AGAIN_ANSWER);
    expect(await ask("owner@summit.example", ctx)).toMatchObject({ error: LINK_AGAIN_RATE_LIMITED });
    await afterAnswer();
    expect(await linksOwed()).toHaveLength(0);
  });
});
