/**
 * "Download my data": the real route (app/waitlist/entry/[token]/data) on a real
 * database gives the visitor everything held about their entry, and nothing to
 * anyone without their signed link.
 */
import { PRIVACY_NOTICE_VERSION } from "@/lib/content/privacy";
import { describe, expect, it } from "vitest";
import * as route from "@/app/(site)/waitlist/entry/[token]/data/route";
import { getDatabase } from "@/lib/db";
import { changeFollowUp } from "@/lib/follow-up/changes";
import { entryToken } from "@/lib/waitlist/entry-link";
import { SIGNUP_FIELD_NAMES } from "@/lib/waitlist/fields";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { timestamp } from "@/lib/time";
import { removeEntry } from "@/lib/waitlist/visitor-entry";
import { validSignup } from "../fixtures/signup";
import { setUpTestDatabase } from "../support/database";
import { testSecret } from "../support/challenge";
import { signedUpOwing } from "../support/deliveries";

setUpTestDatabase();

async function signedUp(overrides: Record<string, unknown> = {}) {
  const signup = waitlistSignupSchema.parse(validSignup({ source_page: "/careers", utm_source: "newsletter", ...overrides }));
  const result = await signedUpOwing(signup, ["webhook", "email"]);
  if (result.outcome !== "created") throw new Error(result.outcome);
  const entry = await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: result.entry.id } });
  return { entry, token: entryToken(testSecret(), entry.publicId!) };
}

const download = (token: string) =>
  route.GET(new Request(`http://localhost:3000/waitlist/entry/${token}/data`), { params: Promise.resolve({ token }) });

describe("download my data", () => {
  it("is a JSON file of everything held about the entry and what was sent about it, matching the database", async () => {
    const { entry, token } = await signedUp();
    await getDatabase().outboxMessage.updateMany({
      where: { entryId: entry.id, kind: "email" },
      data: { status: "delivered", deliveredAt: new Date(), attempts: 1 },
    });
    await getDatabase().waitlistEntry.update({ where: { id: entry.id }, data: { confirmedAt: new Date() } });

    const response = await download(token);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="fieldcrew-waitlist-entry.json"');
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    const text = await response.text();
    const data = JSON.parse(text) as {
      entry: Record<string, unknown>;
      notifications: Record<string, unknown>[];
      follow_up: Record<string, unknown>;
    };

    const stored = await getDatabase().waitlistEntry.findUniqueOrThrow({
      where: { id: entry.id },
      include: { deliveries: { orderBy: { createdAt: "asc" } } },
    });
    expect(Object.keys(data.entry).slice(0, SIGNUP_FIELD_NAMES.length)).toEqual(SIGNUP_FIELD_NAMES);
    expect(data.entry).toEqual({
      company_name: stored.companyName,
      contact_name: stored.contactName,
      email: stored.email,
      phone: stored.phone,
      business_type: stored.businessType,
      company_size: stored.companySize,
      notes: stored.notes,
      source_page: "/careers",
      utm_source: "newsletter",
      utm_medium: null,
      utm_campaign: null,
      signed_up_at: timestamp(stored.createdAt),
      privacy_notice_version: PRIVACY_NOTICE_VERSION,
      email_confirmed_at: timestamp(stored.confirmedAt!),
      mailbox: stored.emailNormalized,
      duplicate_of_an_older_entry: false,
    });
    expect(data.follow_up).toEqual({
      state: "awaiting",
      where_you_stand: expect.stringContaining("We reach out within 48 hours"),
      first_contacted_at: null,
      invited_at: null,
      changes: [],
    });
    expect(data.notifications).toHaveLength(2);
    const email = data.notifications.find((row) => String(row.what).includes("confirmation email"))!;
    const emailRow = stored.deliveries.find((row) => row.kind === "email")!;
    expect(email).toEqual({
      what: "the confirmation email to your address",
      status: "delivered",
      queued_at: timestamp(emailRow.createdAt),
      delivered_at: timestamp(emailRow.deliveredAt!),
      attempts: 1,
    });
    expect(data.notifications.find((row) => row !== email)).toMatchObject({ status: "pending", delivered_at: null, attempts: 0 });

    // No key to anything: not the link's, not the question's, not the outbox's ids.
    for (const secret of [
      entry.publicId!,
      token.split(".")[1]!,
      entry.challengeId ?? "no-challenge",
      ...stored.deliveries.map((row) => row.id),
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it.each([
    ["an altered signature", (token: string) => `${token.slice(0, -3)}${token.slice(-3, -2) === "A" ? "B" : "A"}${token.slice(-2)}`],
    ["another entry's id with this signature", (token: string) => `00000000-0000-4000-8000-000000000000.${token.split(".")[1]}`],
    ["a link signed with another secret", (token: string) => entryToken("another-secret-another-secret-0123", token.split(".")[0]!)],
    ["the id alone", (token: string) => token.split(".")[0]!],
    ["garbage", () => "..%2F..%2Fetc%2Fpasswd"],
  ])("gives nothing for %s", async (_, forge) => {
    const { entry, token } = await signedUp();
    const response = await download(forge(token));
    expect(response.status).toBe(404);
    const text = await response.text();
    expect(text).toBe("This link is not valid. Use the link in your confirmation email.");
    expect(text).not.toContain(entry.email);
  });

  it("says the entry is gone once the visitor left, and holds nothing about it", async () => {
    const { entry, token } = await signedUp();
    expect(await removeEntry(getDatabase(), { id: entry.id }, "visitor")).toBe(true);
    const response = await download(token);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("This entry is no longer on the waitlist. We hold nothing about it.");
  });

  it("takes GET only", async () => {
    const response = await route.POST();
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("Download my data, once the team follows up", () => {
  it("holds the follow-up's states and dates and the invitation sent, never the team's notes or names", async () => {
    const { entry, token } = await signedUp();
    const operator = { email: "ana@fieldcrew.app", operatorId: null };
    const contactedAt = new Date("2026-11-24T10:00:00Z");
    await changeFollowUp(getDatabase(), [entry.id], { to: "contacted", note: "Private: budget is tight" }, operator, {
      deliveries: [],
      now: contactedAt,
    });
    await changeFollowUp(getDatabase(), [entry.id], { to: "invited" }, operator, {
      deliveries: ["email"],
      now: new Date("2026-11-25T10:00:00Z"),
    });
    const text = await (await download(token)).text();
    const data = JSON.parse(text) as { follow_up: Record<string, unknown>; notifications: { what: string }[] };
    expect(data.follow_up).toMatchObject({
      state: "invited",
      first_contacted_at: timestamp(contactedAt),
      changes: [
        { at: timestamp(contactedAt), became: "contacted" },
        { at: "2026-11-25T10:00:00.000+00:00", became: "invited" },
      ],
    });
    expect(data.notifications.map((n) => n.what)).toContain("your invitation email");
    expect(text).not.toMatch(/Private|ana@fieldcrew/);
  });
});
