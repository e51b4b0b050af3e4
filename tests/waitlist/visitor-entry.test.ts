/**
 * The visitor's own page and its two actions, through the real route handler
 * (app/api/waitlist/entry/route.ts) on a real database: signed links only,
 * same-origin POSTs only, and removal that leaves nothing but a count.
 */
import { describe, expect, it } from "vitest";
import * as route from "@/app/api/waitlist/entry/route";
import { changeFollowUp } from "@/lib/follow-up/changes";
import { getDatabase } from "@/lib/db";
import { entryToken } from "@/lib/waitlist/entry-link";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { loadEntryPage } from "@/lib/waitlist/visitor-entry";
import { setUpTestDatabase } from "../support/database";
import { testSecret } from "../support/challenge";
import { signedUpOwing } from "../support/deliveries";
import { validSignup } from "../support/requests";

setUpTestDatabase();

const ORIGIN = "http://localhost:3000";

/** A stored sign-up owing a webhook and an email, and the token of its link. */
async function signedUp(email = `visitor.${Date.now()}.${Math.random()}@example.com`) {
  const result = await signedUpOwing(waitlistSignupSchema.parse(validSignup({ email })), ["webhook", "email"]);
  if (result.outcome !== "created") throw new Error(result.outcome);
  const entry = await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: result.entry.id } });
  return { entry, token: entryToken(testSecret(), entry.publicId!) };
}

function action(token: string, act: string, headers: Record<string, string> = { origin: ORIGIN }) {
  return route.POST(
    new Request(`${ORIGIN}/api/waitlist/entry`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams({ token, action: act }).toString(),
    }),
  );
}

describe("the visitor's page", () => {
  it("shows the entry for a signed link", async () => {
    const { entry, token } = await signedUp("page@example.com");
    expect(await loadEntryPage(token)).toEqual({
      state: "found",
      entry: {
        contactName: entry.contactName,
        email: "page@example.com",
        registered: [
          ["Company", entry.companyName],
          ["Name", entry.contactName],
          ["Email", "page@example.com"],
          ["Phone", entry.phone],
          ["Business type", "HVAC"],
          ["Company size", "6-10 employees"],
          ["Notes", entry.notes],
        ],
        signedUpAt: entry.createdAt,
        confirmedAt: null,
        unsubscribedAt: null,
        standing: {
          heading: "Our team will be in touch",
          text: expect.stringMatching(/^We reach out within 48 hours of every sign-up: by \d{1,2} \w+ \d{4} for yours\.$/),
        },
      },
    });
  });

  it("says where the visitor stands as the team follows up, in their words, never the team's notes", async () => {
    const { entry, token } = await signedUp("standing@example.com");
    const operator = { email: "ana@fieldcrew.app", operatorId: null };
    const standing = async () => {
      const page = await loadEntryPage(token);
      return page.state === "found" ? page.entry.standing : undefined;
    };
    await changeFollowUp(getDatabase(), [entry.id], { to: "contacted", note: "Secret: wants a discount" }, operator, {
      deliveries: [],
      now: new Date("2026-11-24T15:00:00Z"),
    });
    expect(await standing()).toEqual({
      heading: "We've been in touch",
      text: "We contacted you on 24 November 2026. If you missed us, reply to our email and we'll find a time that suits you.",
    });
    await changeFollowUp(getDatabase(), [entry.id], { to: "invited" }, operator, { deliveries: [], now: new Date("2026-11-26T09:00:00Z") });
    const invited = await standing();
    expect(invited?.heading).toBe("You're invited");
    expect(invited?.text).toContain("on 26 November 2026");
    expect(JSON.stringify(await loadEntryPage(token))).not.toMatch(/Secret|ana@fieldcrew/);
  });

  it.each([
    ["an altered signature", (token: string) => `${token.slice(0, -5)}${token.slice(-5, -4) === "A" ? "B" : "A"}${token.slice(-4)}`],
    // The last character's two unused bits: the same bytes spelled another way is still not our link.
    [
      "another spelling of the signature's last character",
      (token: string) => {
        const last = token.at(-1)!;
        const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        const index = alphabet.indexOf(last);
        return `${token.slice(0, -1)}${alphabet[index ^ 1]}`;
      },
    ],
    ["another entry's id with this signature", (token: string) => `00000000-0000-4000-8000-000000000000.${token.split(".")[1]}`],
    ["a link signed with another secret", (token: string) => entryToken("another-secret-another-secret-0123", token.split(".")[0]!)],
    ["the id alone", (token: string) => token.split(".")[0]!],
    ["garbage", () => "../../etc/passwd"],
  ])("refuses %s", async (_, forge) => {
    const { token } = await signedUp();
    expect(await loadEntryPage(forge(token))).toEqual({ state: "invalid" });
  });
});

describe("POST /api/waitlist/entry", () => {
  it("confirms the email once: the first time is kept, and the visitor is sent back to the page", async () => {
    const { entry, token } = await signedUp();
    const response = await action(token, "confirm");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/waitlist/entry/${token}?done=confirm`);
    const confirmed = (await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: entry.id } })).confirmedAt!;
    expect(Date.now() - confirmed.getTime()).toBeLessThan(60_000);
    await action(token, "confirm");
    expect((await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: entry.id } })).confirmedAt).toEqual(confirmed);
    expect(await loadEntryPage(token)).toMatchObject({ state: "found", entry: { confirmedAt: confirmed } });
  });

  it("removes the entry and what was still owed about it, counts the removal, and the link then says it is gone", async () => {
    const { entry, token } = await signedUp("leaving@example.com");
    const staying = await signedUp("staying@example.com");
    expect(await getDatabase().outboxMessage.count({ where: { entryId: entry.id } })).toBe(2);

    const response = await action(token, "remove");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/waitlist/entry/${token}?done=remove`);
    expect(await getDatabase().waitlistEntry.findUnique({ where: { id: entry.id } })).toBeNull();
    expect(await getDatabase().outboxMessage.count({ where: { entryId: entry.id } })).toBe(0);
    expect(await getDatabase().waitlistRemoval.findMany({ select: { removedBy: true } })).toEqual([{ removedBy: "visitor" }]);
    expect(await loadEntryPage(token)).toEqual({ state: "gone" });

    // Again: nothing left to remove, nothing counted twice; the other entry is untouched.
    expect((await action(token, "remove")).status).toBe(303);
    expect(await getDatabase().waitlistRemoval.count()).toBe(1);
    expect(await loadEntryPage(staying.token)).toMatchObject({ state: "found" });
  });

  it("accepts the page's own form when the browser sends Origin: null (the page's no-referrer policy) with Sec-Fetch-Site: same-origin", async () => {
    const { entry, token } = await signedUp();
    expect((await action(token, "confirm", { origin: "null", "sec-fetch-site": "same-origin" })).status).toBe(303);
    expect((await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: entry.id } })).confirmedAt).not.toBeNull();
  });

  it.each([
    ["no browser headers (a script, a mail scanner)", {}],
    ["Origin: null and nothing to vouch for it", { origin: "null" }],
    ["another site's Origin", { origin: "https://evil.example" }],
    ["another site's Origin, whatever Sec-Fetch-Site says", { origin: "https://evil.example", "sec-fetch-site": "same-origin" }],
    ["a cross-site form", { origin: "null", "sec-fetch-site": "cross-site" }],
    ["a same-site but other-origin form", { origin: ORIGIN, "sec-fetch-site": "same-site" }],
  ])("refuses a post with %s and changes nothing", async (_, headers) => {
    const { entry, token } = await signedUp();
    const response = await action(token, "remove", headers);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("nothing was changed");
    expect(await getDatabase().waitlistEntry.count({ where: { id: entry.id } })).toBe(1);
  });

  it("sends a forged token back to the page, which refuses it, and changes nothing", async () => {
    const { entry, token } = await signedUp();
    const forged = `${token.slice(0, -2)}xx`;
    const response = await action(forged, "remove");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/waitlist/entry/${forged}`);
    expect(await getDatabase().waitlistEntry.count({ where: { id: entry.id } })).toBe(1);
  });

  it("refuses an unknown action, another content type, and every method but POST", async () => {
    const { token } = await signedUp();
    expect((await action(token, "delete-everything")).status).toBe(400);
    const json = await route.POST(
      new Request(`${ORIGIN}/api/waitlist/entry`, {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(json.status).toBe(415);
    const get = await route.GET();
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });
});
