/**
 * Throwaway domains are refused with a clear message on the email field, the
 * operators' deny and allow lists change that, and every refusal because of the
 * address is counted by reason and domain (never the address) for `stats`.
 */
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { refusedDomain } from "@/lib/waitlist/email-domains";
import { signUpEndpoint, type SignUpOptions } from "../support/sign-up";
import { SharedRateLimiter } from "@/lib/security/rate-limit";
import { countEntries, setUpTestDatabase } from "../support/database";
import { testSecret } from "../support/challenge";
import { answerOf, jsonRequest, signupBody } from "../support/requests";

setUpTestDatabase();

function handler(overrides: Partial<SignUpOptions> = {}) {
  return signUpEndpoint({
    secret: testSecret(),
    minSubmitMs: 0,
    siteUrl: "https://fieldcrew.example",
    limiter: new SharedRateLimiter({ max: 1_000, windowMs: 600_000 }),
    ...overrides,
  });
}

const refusals = () =>
  getDatabase().emailRefusal.findMany({
    orderBy: [{ reason: "asc" }, { domain: "asc" }],
    select: { reason: true, domain: true, count: true },
  });

describe("throwaway email domains", () => {
  it.each(["someone@mailinator.com", "Someone@MAILINATOR.COM", "x@guerrillamail.com", "x@sub.mailinator.com", "x@yopmail.com"])(
    "refuses %s with the reason on the email field, and stores nothing",
    async (email) => {
      const answer = await answerOf(await handler()(jsonRequest(signupBody({ email }))));
      const domain = email.split("@")[1]!.toLowerCase();
      expect(answer).toEqual({
        status: 400,
        body: {
          code: "email_refused",
          error: expect.any(String),
          fields: { email: `Please use an address you read: we can't reach you at ${domain}` },
        },
      });
      expect(await countEntries()).toBe(0);
    },
  );

  it("takes ordinary domains, and domains that merely contain a listed one", async () => {
    for (const email of [
      "owner@gmail.com",
      "owner@northwind.example",
      "owner@mailinator.com.example",
      "owner@northwind-mailinator.example",
    ]) {
      expect((await handler()(jsonRequest(signupBody({ email })))).status).toBe(201);
    }
  });

  it("follows the operators' lists: deny adds a domain (and its subdomains), allow makes an exception that wins", async () => {
    const lists = { deny: ["competitor.example"], allow: ["mailinator.com"] };
    expect(refusedDomain("a@competitor.example", lists)).toEqual({ reason: "denied", domain: "competitor.example" });
    expect(refusedDomain("a@eu.competitor.example", lists)).toEqual({ reason: "denied", domain: "eu.competitor.example" });
    expect(refusedDomain("a@mailinator.com", lists)).toBeNull();
    expect(refusedDomain("a@mailinator.com")).toEqual({ reason: "disposable", domain: "mailinator.com" });

    const post = handler({ emailDomains: lists });
    expect((await answerOf(await post(jsonRequest(signupBody({ email: "spy@competitor.example" }))))).body.code).toBe("email_refused");
    expect((await post(jsonRequest(signupBody({ email: "tester@mailinator.com" })))).status).toBe(201);
  });

  it("counts each refusal by day, reason and domain, duplicates included, and keeps no address", async () => {
    const post = handler({ emailDomains: { deny: ["competitor.example"] } });
    for (const email of ["a@mailinator.com", "b@mailinator.com", "c@yopmail.com", "d@competitor.example"]) {
      expect((await post(jsonRequest(signupBody({ email })))).status).toBe(400);
    }
    expect((await post(jsonRequest(signupBody({ email: "anna.smith@gmail.com" })))).status).toBe(201);
    expect((await post(jsonRequest(signupBody({ email: "annasmith+2@googlemail.com" })))).status).toBe(409);
    expect(await refusals()).toEqual([
      { reason: "already_registered", domain: "gmail.com", count: 1 },
      { reason: "denied", domain: "competitor.example", count: 1 },
      { reason: "disposable", domain: "mailinator.com", count: 2 },
      { reason: "disposable", domain: "yopmail.com", count: 1 },
    ]);
    const stored = JSON.stringify(await getDatabase().emailRefusal.findMany());
    expect(stored).not.toMatch(/anna|@/);
  });
});
