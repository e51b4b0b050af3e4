/**
 * POST /api/operator/follow-up, the console's follow-up forms, through the real
 * route with a real session on a real SQLite file, both drivers: it changes
 * nothing without a session or from another site, refuses what is not valid with
 * a clear answer, and says on the page it returns to what happened.
 */
import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/operator/follow-up/route";
import { getDatabase } from "@/lib/db";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { setUpTestDatabase } from "../support/database";
import { signedInOperator } from "../support/operator-session";
import { validSignup } from "../support/requests";

setUpTestDatabase();
const SITE = "http://localhost:3000";

async function signUp() {
  const result = await addToWaitlist(waitlistSignupSchema.parse(validSignup()));
  if (result.outcome !== "created") throw new Error(result.outcome);
  return result.entry.id;
}

function post(fields: [string, string][], init: { cookie?: string; origin?: string | null } = {}) {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.origin !== null) headers.Origin = init.origin ?? SITE;
  return POST(new Request(`${SITE}/api/operator/follow-up`, { method: "POST", headers, body: new URLSearchParams(fields) }));
}

const stateOf = async (id: number) => (await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id } })).followUpState;

describe("POST /api/operator/follow-up", () => {
  it("without a session sends the browser to sign in and changes nothing", async () => {
    const id = await signUp();
    const response = await post([
      ["action", "change"],
      ["to", "contacted"],
      ["id", String(id)],
    ]);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/operator/sign-in");
    // A made-up cookie is no session either.
    const forged = await post(
      [
        ["action", "change"],
        ["to", "contacted"],
        ["id", String(id)],
      ],
      { cookie: "fieldcrew-operator.session_token=made-up.c2lnbmF0dXJl" },
    );
    expect(forged.headers.get("location")).toBe("/operator/sign-in");
    expect(await stateOf(id)).toBe("awaiting");
    expect(await getDatabase().followUpEvent.count()).toBe(0);
  });

  it("refuses a post from another site, even with a session", async () => {
    const { cookie } = await signedInOperator("ana@fieldcrew.app");
    const id = await signUp();
    for (const origin of ["https://evil.example", null]) {
      const response = await post(
        [
          ["action", "change"],
          ["to", "contacted"],
          ["id", String(id)],
        ],
        { cookie, origin },
      );
      expect(response.status).toBe(403);
    }
    expect(await stateOf(id)).toBe("awaiting");
  });

  it("marks a selection contacted with a note, and returns to the queue saying what happened", async () => {
    const { cookie } = await signedInOperator("ana@fieldcrew.app");
    const [a, b] = [await signUp(), await signUp()];
    const response = await post(
      [
        ["action", "change"],
        ["to", "contacted"],
        ["note", "Left a voicemail"],
        ["id", String(a)],
        ["id", String(b)],
        ["return", "/operator?type=hvac"],
      ],
      { cookie },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/operator?type=hvac&done=contacted&changed=2&already=0&refused=0&missing=0");
    expect([await stateOf(a), await stateOf(b)]).toEqual(["contacted", "contacted"]);
    const events = await getDatabase().followUpEvent.findMany();
    expect(events.map((e) => [e.actor, e.note])).toEqual([
      ["ana@fieldcrew.app", "Left a voicemail"],
      ["ana@fieldcrew.app", "Left a voicemail"],
    ]);
  });

  it("answers what is not valid clearly and changes nothing", async () => {
    const { cookie } = await signedInOperator("ana@fieldcrew.app");
    const id = await signUp();
    const closedWithoutReason = await post(
      [
        ["action", "change"],
        ["to", "closed"],
        ["id", String(id)],
        ["return", `/operator/entries/${id}`],
      ],
      { cookie },
    );
    expect(closedWithoutReason.headers.get("location")).toBe(`/operator/entries/${id}?problem=closed_reason`);
    expect(
      (
        await post(
          [
            ["action", "change"],
            ["to", "contacted"],
            ["id", "1 OR 1=1"],
          ],
          { cookie },
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await post(
          [
            ["action", "explode"],
            ["id", String(id)],
          ],
          { cookie },
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await post(
          [
            ["action", "change"],
            ["to", "contacted"],
          ],
          { cookie },
        )
      ).headers.get("location"),
    ).toBe("/operator?problem=none_selected");
    // Only console pages to return to: anything else goes to the queue.
    const elsewhere = await post(
      [
        ["action", "note"],
        ["note", "hi"],
        ["id", String(id)],
        ["return", "https://evil.example/"],
      ],
      { cookie },
    );
    expect(elsewhere.headers.get("location")).toBe("/operator?done=noted");
    expect(await stateOf(id)).toBe("awaiting");
  });

  it("reads the form through the bounded reader: too large is 413, another encoding 415, nothing changed", async () => {
    const { cookie } = await signedInOperator("ana@fieldcrew.app");
    const id = await signUp();
    const huge = await post(
      [
        ["action", "change"],
        ["to", "contacted"],
        ["id", String(id)],
        ["note", "x".repeat(40_000)],
      ],
      { cookie },
    );
    expect(huge.status).toBe(413);
    const json = await POST(
      new Request(`${SITE}/api/operator/follow-up`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: SITE, Cookie: cookie },
        body: JSON.stringify({ action: "change", to: "contacted", id }),
      }),
    );
    expect(json.status).toBe(415);
    expect(await stateOf(id)).toBe("awaiting");
  });

  it("assigns to the signed-in operator with 'me', and refuses an operator who is not there", async () => {
    const { cookie, id: me } = await signedInOperator("ana@fieldcrew.app");
    const id = await signUp();
    expect(
      (
        await post(
          [
            ["action", "assign"],
            ["assignee", "me"],
            ["id", String(id)],
          ],
          { cookie },
        )
      ).headers.get("location"),
    ).toBe("/operator?done=assigned&changed=1");
    expect((await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id } })).assignedTo).toBe(me);
    expect(
      (
        await post(
          [
            ["action", "assign"],
            ["assignee", "gone-operator"],
            ["id", String(id)],
          ],
          { cookie },
        )
      ).headers.get("location"),
    ).toBe("/operator?problem=assignee");
  });
});
