/**
 * The console's trust boundary (issue 30), through the real parts on a real SQLite file
 * with both drivers: better-auth itself behind /api/auth (lib/auth/routes.ts), the
 * console's routes, the roles and the fresh sign-in. Every door is tried with an idle,
 * an expired, a removed and a forged session, and with a member's.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as accountRoute from "@/app/api/operator/account/route";
import * as campaignsRoute from "@/app/api/operator/campaigns/route";
import * as redeliverRoute from "@/app/api/operator/deliveries/[id]/redeliver/route";
import * as removeRoute from "@/app/api/operator/entries/[id]/remove/route";
import * as exportRoute from "@/app/api/operator/export/route";
import * as updateRoute from "@/app/api/operator/updates/[id]/route";

// The console's routes as Next calls them: the request, and the address's segments.
const handleAccount = (request: Request) => accountRoute.POST(request);
const handleCampaignsCsv = (request: Request) => campaignsRoute.GET(request);
const handleExport = (request: Request) => exportRoute.GET(request);
const handleRedeliver = (request: Request, id: string) => redeliverRoute.POST(request, { params: Promise.resolve({ id }) });
const handleRemove = (request: Request, id: string) => removeRoute.POST(request, { params: Promise.resolve({ id }) });
const handleUpdate = (request: Request, id: string) => updateRoute.POST(request, { params: Promise.resolve({ id }) });
import { COOKIE_PREFIX, getAuth } from "@/lib/auth/auth";
import { createInvitation } from "@/lib/auth/invitations";
import { createAuthRoute } from "@/lib/auth/routes";
import { getDatabase } from "@/lib/db";
import { removeOperator } from "@/lib/console/operators";
import { CLIENT_ADDRESS_HEADER } from "@/lib/security/client-address";
import { SharedRateLimiter } from "@/lib/security/rate-limit";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { parseUpdate, sendUpdate } from "@/lib/updates/updates";
import { setUpTestDatabase } from "../support/database";
import { sessionCookie, signedInOperator } from "../support/operator-session";
import { softwarePasskeyResponse } from "../support/software-passkey";
import { validSignup } from "../support/requests";

setUpTestDatabase();
const SITE = "http://localhost:3000";
const shell = { email: "shell (test@host)", operatorId: null };

function authRoute() {
  return createAuthRoute({
    auth: getAuth,
    siteUrl: SITE,
    limiter: new SharedRateLimiter({ max: 1000, windowMs: 60_000, database: getDatabase }),
  });
}

function authRequest(path: string, init: { method?: "GET" | "POST"; cookie?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { [CLIENT_ADDRESS_HEADER]: "203.0.113.7", Origin: SITE };
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  return new Request(`${SITE}/api/auth${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/** An operator with one passkey on file (a made-up public key: it can be listed, never used). */
async function operatorWithPasskey(email: string, options: Parameters<typeof signedInOperator>[2] = {}) {
  const signedIn = await signedInOperator(email, "Test Operator", options);
  const credentialID = randomBytes(16).toString("base64url");
  await getDatabase().operatorPasskey.create({
    data: {
      id: crypto.randomUUID(),
      userId: signedIn.id,
      credentialID,
      publicKey: "AAAA",
      counter: 0,
      deviceType: "singleDevice",
      backedUp: false,
      createdAt: new Date(),
    },
  });
  return { ...signedIn, credentialID };
}

type Spoiled = { label: string; spoil: (operator: Awaited<ReturnType<typeof operatorWithPasskey>>) => Promise<string> };

const SPOILED: Spoiled[] = [
  {
    label: "idle for 61 minutes",
    spoil: async (o) => (
      await getDatabase().operatorSession.update({ where: { id: o.sessionId }, data: { updatedAt: new Date(Date.now() - 61 * 60_000) } }),
      o.cookie
    ),
  },
  {
    label: "past its 12 hours",
    spoil: async (o) => (
      await getDatabase().operatorSession.update({ where: { id: o.sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } }),
      o.cookie
    ),
  },
  {
    label: "of a removed operator",
    spoil: async (o) => (
      await removeOperator(getDatabase(), (await getDatabase().operator.findUniqueOrThrow({ where: { id: o.id } })).email, shell),
      o.cookie
    ),
  },
  {
    label: "forged",
    spoil: async () => {
      return sessionCookie(randomBytes(24).toString("base64url"), "not the site's secret");
    },
  },
];

/** What was audited in the operator's name, besides the sign-ins the test's own sessions were made with. */
const auditOf = async (operatorId: string) =>
  (await getDatabase().operatorAction.findMany({ where: { operatorId, action: { not: "sign_in" } }, orderBy: { id: "asc" } })).map(
    (row) => row.action,
  );

describe("/api/auth under the console's session rule", () => {
  it("a good, fresh session: the library sees it, and a sign-out through /api/auth is audited", async () => {
    const handle = authRoute();
    const o = await operatorWithPasskey("good@fieldcrew.app");
    const session = (await (await handle(authRequest("/get-session", { cookie: o.cookie }))).json()) as { user?: { email: string } } | null;
    expect(session?.user?.email).toBe("good@fieldcrew.app");
    const options = (await (await handle(authRequest("/passkey/generate-authenticate-options", { cookie: o.cookie }))).json()) as {
      allowCredentials?: { id: string }[];
    };
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([o.credentialID]);
    expect((await handle(authRequest("/passkey/generate-register-options", { method: "POST", cookie: o.cookie, body: {} }))).status).toBe(
      200,
    );
    const out = await handle(authRequest("/sign-out", { method: "POST", cookie: o.cookie, body: {} }));
    expect(out.status).toBe(200);
    expect(await getDatabase().operatorSession.count({ where: { id: o.sessionId } })).toBe(0);
    expect(await auditOf(o.id)).toEqual(["sign_out"]);
  });

  for (const { label, spoil } of SPOILED) {
    it(`a session ${label} is no session on any endpoint that is switched on`, async () => {
      const handle = authRoute();
      const o = await operatorWithPasskey(`spoiled-${label.length}@fieldcrew.app`, { role: "member" });
      const cookie = await spoil(o);
      const answers: Record<string, number> = {};
      const walk = async (path: string, init: Parameters<typeof authRequest>[1]) => {
        const response = await handle(authRequest(path, { ...init, cookie }));
        answers[path] = response.status;
        return response;
      };

      expect(await (await walk("/get-session", {})).json()).toBeNull();
      const options = (await (await walk("/passkey/generate-authenticate-options", {})).json()) as { allowCredentials?: unknown[] };
      expect(options.allowCredentials ?? []).toEqual([]);
      expect((await walk("/passkey/generate-register-options", { method: "POST", body: {} })).status).toBe(401);
      expect(
        (
          await walk("/passkey/verify-registration", {
            method: "POST",
            body: { response: { id: "x", rawId: "x", type: "public-key", response: {} } },
          })
        ).status,
      ).toBeGreaterThanOrEqual(400);
      expect(
        (await walk("/passkey/verify-authentication", { method: "POST", body: { response: { id: o.credentialID } } })).status,
      ).toBeGreaterThanOrEqual(400);
      expect((await walk("/sign-in/magic-link", { method: "POST", body: { email: "spoiled@fieldcrew.app" } })).status).toBe(200);
      expect((await walk("/magic-link/verify?token=made-up&callbackURL=/operator", {})).status).toBeLessThan(500);
      await walk("/sign-out", { method: "POST", body: {} });
      for (const [path, status] of Object.entries(answers)) expect(status, path).toBeLessThan(500);

      // Nothing was added, nothing signed in or out in their name, and an idle session is gone for good.
      expect(await getDatabase().operatorPasskey.count({ where: { userId: o.id } })).toBe(label.includes("removed") ? 0 : 1);
      expect(await auditOf(o.id)).not.toContain("sign_out");
      expect(await auditOf(o.id)).not.toContain("passkey_added");
      if (label.startsWith("idle")) expect(await getDatabase().operatorSession.count({ where: { id: o.sessionId } })).toBe(0);
    });
  }

  it("adding a passkey needs a passkey sign-in within 10 minutes; an emailed link or an older one is sent to confirm", async () => {
    const handle = authRoute();
    const viaLink = await operatorWithPasskey("link@fieldcrew.app", { signedInWith: "email link" });
    const refused = await handle(authRequest("/passkey/generate-register-options", { method: "POST", cookie: viaLink.cookie, body: {} }));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      code: "fresh_sign_in_required",
      confirm: "/operator/confirm?return=%2Foperator%2Faccount",
    });

    const older = await operatorWithPasskey("older@fieldcrew.app");
    await getDatabase().operatorSession.update({ where: { id: older.sessionId }, data: { createdAt: new Date(Date.now() - 11 * 60_000) } });
    expect(
      (await handle(authRequest("/passkey/generate-register-options", { method: "POST", cookie: older.cookie, body: {} }))).status,
    ).toBe(403);
  });

  it("the enrolment token travels in a POST body only: a GET with it in the address is refused before the library", async () => {
    const handle = authRoute();
    const operator = await getDatabase().operator.create({
      data: {
        id: crypto.randomUUID(),
        email: "new@fieldcrew.app",
        name: "New",
        role: "member",
        emailVerified: true,
        createdAt: new Date(),
        updatedAt: new Date(),
      },
    });
    const { token } = await createInvitation(getDatabase(), operator.id);
    const asGet = await handle(authRequest(`/passkey/generate-register-options?context=${token}`));
    expect(asGet.status).toBe(405);
    expect(asGet.headers.get("allow")).toBe("POST");
    const asPost = await handle(authRequest("/passkey/generate-register-options", { method: "POST", body: { context: token } }));
    expect(asPost.status).toBe(200);
    expect(((await asPost.json()) as { user: { name: string } }).user.name).toBe("new@fieldcrew.app");
    // A token that is not an enrolment link's: refused, with the link's own message.
    const wrong = await handle(authRequest("/passkey/generate-register-options", { method: "POST", body: { context: "made-up" } }));
    expect(wrong.status).toBe(400);
    // The ceremony has not used the link up; only a verified passkey does.
    expect(await getDatabase().operatorInvitation.count({ where: { operatorId: operator.id, usedAt: null } })).toBe(1);
  });
});

async function signUp() {
  const result = await addToWaitlist(waitlistSignupSchema.parse(validSignup()));
  if (result.outcome !== "created") throw new Error(result.outcome);
  return result.entry.id;
}

const consoleRequest = (path: string, cookie: string, method: "GET" | "POST" = "GET", form?: Record<string, string>) =>
  new Request(`${SITE}${path}`, {
    method,
    headers: {
      Cookie: cookie,
      Origin: SITE,
      "Sec-Fetch-Site": "same-origin",
      ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
    },
    body: form ? new URLSearchParams(form) : undefined,
  });

describe("roles and fresh sign-in on the console's routes", () => {
  it("a member's session opens none of an admin's doors, and changes nothing", async () => {
    const member = await signedInOperator("member@fieldcrew.app", "Member", { role: "member" });
    const id = await signUp();
    await getDatabase().outboxMessage.create({
      data: {
        id: "failed-1",
        kind: "webhook",
        entryId: id,
        status: "failed",
        attempts: 3,
        nextAttemptAt: new Date(),
        createdAt: new Date(),
      },
    });
    for (const response of [
      await handleExport(consoleRequest("/api/operator/export?format=csv", member.cookie)),
      await handleExport(consoleRequest("/api/operator/export?format=json", member.cookie)),
      await handleRemove(consoleRequest(`/api/operator/entries/${id}/remove`, member.cookie, "POST"), String(id)),
      await handleRedeliver(consoleRequest("/api/operator/deliveries/failed-1/redeliver", member.cookie, "POST"), "failed-1"),
    ]) {
      expect(response.status).toBe(403);
      expect(await response.text()).toMatch(
        /^Your role does not include this, so nothing was changed\. Yours is member: only an admin may/,
      );
    }
    expect(await getDatabase().waitlistEntry.count({ where: { id } })).toBe(1);
    expect((await getDatabase().outboxMessage.findUniqueOrThrow({ where: { id: "failed-1" } })).status).toBe("failed");
    expect(await auditOf(member.id)).toEqual([]);
  });

  it("an admin whose passkey sign-in is older than 10 minutes confirms first, and comes back where they were", async () => {
    const admin = await signedInOperator("admin@fieldcrew.app", "Admin");
    await getDatabase().operatorSession.update({ where: { id: admin.sessionId }, data: { createdAt: new Date(Date.now() - 11 * 60_000) } });
    const id = await signUp();
    const download = await handleExport(consoleRequest("/api/operator/export?format=csv&q=northwind&type=hvac", admin.cookie));
    expect(download.status).toBe(303);
    expect(download.headers.get("location")).toBe(
      `/operator/confirm?return=${encodeURIComponent("/operator/entries?q=northwind&type=hvac")}`,
    );
    const removal = await handleRemove(consoleRequest(`/api/operator/entries/${id}/remove`, admin.cookie, "POST"), String(id));
    expect(removal.headers.get("location")).toBe(`/operator/confirm?return=${encodeURIComponent(`/operator/entries/${id}`)}`);
    expect(await getDatabase().waitlistEntry.count({ where: { id } })).toBe(1);
    expect(await auditOf(admin.id)).toEqual([]);

    // Freshly signed in with the passkey: both go ahead.
    await getDatabase().operatorSession.update({ where: { id: admin.sessionId }, data: { createdAt: new Date() } });
    expect((await handleExport(consoleRequest("/api/operator/export?format=csv", admin.cookie))).status).toBe(200);
    expect((await handleRemove(consoleRequest(`/api/operator/entries/${id}/remove`, admin.cookie, "POST"), String(id))).status).toBe(303);
    expect(await getDatabase().waitlistEntry.count({ where: { id } })).toBe(0);
  });
});

describe("pausing, resuming and cancelling an update", () => {
  async function anUpdate(): Promise<number> {
    await signUp();
    const parsed = parseUpdate({ subject: "News", body: "Hello {{name}}" });
    if ("problems" in parsed) throw new Error("bad update");
    return (await sendUpdate(getDatabase(), parsed.input, crypto.randomUUID(), shell)).id;
  }
  const statusOf = async (id: number) => (await getDatabase().mailUpdate.findUniqueOrThrow({ where: { id } })).status;

  it("is refused to a member, a stale sign-in, a signed-out or forged session, and changes nothing", async () => {
    const id = await anUpdate();
    const member = await signedInOperator("update-member@fieldcrew.app", "Member", { role: "member" });
    const refusedMember = await handleUpdate(
      consoleRequest(`/api/operator/updates/${id}`, member.cookie, "POST", { action: "cancel" }),
      String(id),
    );
    expect(refusedMember.status).toBe(403);
    expect(await refusedMember.text()).toMatch(/^Your role does not include this, so nothing was changed\./);

    const stale = await signedInOperator("update-stale@fieldcrew.app", "Stale");
    await getDatabase().operatorSession.update({ where: { id: stale.sessionId }, data: { createdAt: new Date(Date.now() - 11 * 60_000) } });
    const refusedStale = await handleUpdate(
      consoleRequest(`/api/operator/updates/${id}`, stale.cookie, "POST", { action: "cancel" }),
      String(id),
    );
    expect(refusedStale.status).toBe(303);
    expect(refusedStale.headers.get("location")).toBe(`/operator/confirm?return=${encodeURIComponent("/operator/updates")}`);

    const viaLink = await signedInOperator("update-link@fieldcrew.app", "Link", { signedInWith: "email link" });
    expect(
      (await handleUpdate(consoleRequest(`/api/operator/updates/${id}`, viaLink.cookie, "POST", { action: "cancel" }), String(id))).status,
    ).toBe(303);

    const signedOut = await handleUpdate(consoleRequest(`/api/operator/updates/${id}`, "", "POST", { action: "cancel" }), String(id));
    expect([signedOut.status, signedOut.headers.get("location")]).toEqual([303, "/operator/sign-in"]);
    const forged = sessionCookie(randomBytes(24).toString("base64url"), "not the site's secret");
    expect(
      (await handleUpdate(consoleRequest(`/api/operator/updates/${id}`, forged, "POST", { action: "cancel" }), String(id))).status,
    ).toBe(303);

    expect(await statusOf(id)).toBe("sending");
    expect(await getDatabase().operatorAction.count({ where: { action: "update_cancelled" } })).toBe(0);
  });

  it("is done for a fresh admin, audited, and a bad action or update is a clear error", async () => {
    const id = await anUpdate();
    const admin = await signedInOperator("update-admin@fieldcrew.app", "Admin");
    const post = (action: string, which = String(id)) =>
      handleUpdate(consoleRequest(`/api/operator/updates/${which}`, admin.cookie, "POST", { action }), which);
    const paused = await post("pause");
    expect([paused.status, paused.headers.get("location")]).toEqual([303, `/operator/updates?update=${id}&done=pause#update-${id}`]);
    expect(await statusOf(id)).toBe("paused");
    expect((await post("pause")).headers.get("location")).toBe(`/operator/updates?update=${id}&unchanged=pause#update-${id}`);
    await post("resume");
    await post("cancel");
    expect(await statusOf(id)).toBe("cancelled");
    const bad = await post("delete");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Choose pause, resume or cancel.");
    expect((await post("pause", "99999")).status).toBe(404);
    expect(await auditOf(admin.id)).toEqual(["update_paused", "update_resumed", "update_cancelled"]);
  });
});

describe("the campaigns' figures", () => {
  it("are downloaded by any signed-in operator, a member too; without a session, nothing is read", async () => {
    await signUp();
    const today = new Date().toISOString().slice(0, 10);
    const path = `/api/operator/campaigns?from=${today}&to=${today}`;
    const signedOut = await handleCampaignsCsv(new Request(`${SITE}${path}`));
    expect(signedOut.status).toBe(401);
    expect(await signedOut.text()).not.toContain("direct");
    const forged = await handleCampaignsCsv(consoleRequest(path, `${COOKIE_PREFIX}.session_token=forged.token`));
    expect(forged.status).toBe(401);

    const member = await signedInOperator("member@fieldcrew.app", "Member", { role: "member", signedInWith: "email link" });
    const download = await handleCampaignsCsv(consoleRequest(path, member.cookie));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="fieldcrew-campaigns-${today}-to-${today}.csv"`);
    expect(download.headers.get("cache-control")).toBe("no-store");
    const lines = (await download.text()).split("\r\n");
    expect(lines[1]).toBe(`campaign,direct,none,none,,0,0,0,1,0,0,0,1,,${today},${today}`);
  });
});

describe("the account page's own passkeys and sessions", () => {
  it("renames and removes only the operator's own passkeys, never the last, and signs out other browsers; audited", async () => {
    const me = await operatorWithPasskey("me@fieldcrew.app", { role: "member" });
    const other = await operatorWithPasskey("other@fieldcrew.app", { role: "member" });
    const db = getDatabase();
    const [mine] = await db.operatorPasskey.findMany({ where: { userId: me.id } });
    const [theirs] = await db.operatorPasskey.findMany({ where: { userId: other.id } });
    const post = (form: Record<string, string>) => handleAccount(consoleRequest("/api/operator/account", me.cookie, "POST", form));

    expect((await post({ intent: "rename-passkey", id: mine!.id, name: "Work laptop" })).headers.get("location")).toBe(
      "/operator/account?done=renamed#passkeys",
    );
    expect((await db.operatorPasskey.findUniqueOrThrow({ where: { id: mine!.id } })).name).toBe("Work laptop");
    expect((await post({ intent: "rename-passkey", id: theirs!.id, name: "Mine now" })).headers.get("location")).toContain(
      "done=no_such_passkey",
    );
    expect((await post({ intent: "remove-passkey", id: theirs!.id })).headers.get("location")).toContain("done=no_such_passkey");
    expect((await post({ intent: "remove-passkey", id: mine!.id })).headers.get("location")).toContain("done=last_passkey");
    expect(await db.operatorPasskey.count({ where: { userId: me.id } })).toBe(1);
    expect(await db.operatorPasskey.findUniqueOrThrow({ where: { id: theirs!.id } })).toMatchObject({ name: null });

    // Two more browsers of mine, one of someone else's.
    const context = await getAuth().$context;
    const second = await context.internalAdapter.createSession(me.id);
    await context.internalAdapter.createSession(me.id);
    expect((await post({ intent: "end-session", id: other.sessionId })).headers.get("location")).toContain("done=no_such_session");
    expect((await post({ intent: "end-session", id: me.sessionId })).headers.get("location")).toContain("done=no_such_session");
    expect((await post({ intent: "end-session", id: second.id })).headers.get("location")).toContain("done=signed_out");
    expect((await post({ intent: "end-other-sessions" })).headers.get("location")).toContain("done=signed_out_others");
    expect((await db.operatorSession.findMany({ where: { userId: me.id } })).map((s) => s.id)).toEqual([me.sessionId]);
    expect(await db.operatorSession.count({ where: { id: other.sessionId } })).toBe(1);
    expect(await auditOf(me.id)).toEqual(["passkey_renamed", "session_ended", "session_ended"]);
  });
});

describe("the review's findings on the console's doors (issue 42)", () => {
  const cookiesOf = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);

  /** Registration options for a fresh admin's account, then a software passkey's answer posted with `name`. */
  async function register(handle: ReturnType<typeof authRoute>, cookie: string, name: string) {
    const asked = await handle(authRequest("/passkey/generate-register-options", { method: "POST", cookie, body: {} }));
    expect(asked.status).toBe(200);
    const options = (await asked.json()) as { challenge: string; rp: { id: string } };
    const withChallenge = [cookie, ...cookiesOf(asked)].join("; ");
    return handle(
      authRequest("/passkey/verify-registration", {
        method: "POST",
        cookie: withChallenge,
        body: { response: softwarePasskeyResponse(options, SITE), name },
      }),
    );
  }

  it("a passkey's name follows the rename rule when the passkey is made: at most 60 characters, no controls or bidi overrides", async () => {
    const handle = authRoute();
    const admin = await signedInOperator("names@fieldcrew.app", "Names");
    const hostile = `\u001b[2J\u202e${"x".repeat(3_000)}`;
    // Asked with the options (the name the authenticator shows), and with the registration (the name kept).
    const options = await handle(
      authRequest("/passkey/generate-register-options", { method: "POST", cookie: admin.cookie, body: { name: hostile.slice(0, 100) } }),
    );
    expect(options.status).toBe(400);
    expect(await options.json()).toMatchObject({ code: "passkey_name", error: "A passkey's name is at most 60 characters." });
    const tooLong = await register(handle, admin.cookie, hostile);
    expect(tooLong.status).toBe(400);
    expect(await getDatabase().operatorPasskey.count({ where: { userId: admin.id } })).toBe(0);

    const made = await register(handle, admin.cookie, "\u001b]8;;https://evil.example\u0007Work laptop\u202e");
    expect(made.status, await made.clone().text()).toBe(200);
    const [passkey] = await getDatabase().operatorPasskey.findMany({ where: { userId: admin.id } });
    expect(passkey!.name).toBe("]8;;https://evil.example Work laptop");
    expect(passkey!.name).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it("an enrolment token is checked when the ceremony starts, with a session too", async () => {
    const handle = authRoute();
    const signedIn = await signedInOperator("stale@fieldcrew.app", "Stale", { role: "member", signedInWith: "email link" });
    const bogus = await handle(
      authRequest("/passkey/generate-register-options", { method: "POST", cookie: signedIn.cookie, body: { context: "bogus" } }),
    );
    expect(bogus.status).toBe(400);
    expect(await bogus.json()).toMatchObject({ code: "enrolment_link_unusable" });

    // Someone else's link, opened while signed in: refused, and the link is not used up.
    const invited = await getDatabase().operator.create({
      data: {
        id: crypto.randomUUID(),
        email: "invited@fieldcrew.app",
        name: "Invited",
        role: "member",
        emailVerified: true,
        createdAt: new Date(),
        updatedAt: new Date(),
      },
    });
    const { token } = await createInvitation(getDatabase(), invited.id);
    const theirs = await handle(
      authRequest("/passkey/generate-register-options", { method: "POST", cookie: signedIn.cookie, body: { context: token } }),
    );
    expect(theirs.status).toBe(403);
    expect(await theirs.json()).toMatchObject({ code: "enrolment_link_other_operator" });
    expect(await getDatabase().operatorInvitation.count({ where: { operatorId: invited.id, usedAt: null } })).toBe(1);
    // Without a session, the link works as before.
    expect((await handle(authRequest("/passkey/generate-register-options", { method: "POST", body: { context: token } }))).status).toBe(
      200,
    );
  });

  it("a link on another site cannot start a download: cross-site and same-site are refused, the console's own page and a typed address are not", async () => {
    const admin = await signedInOperator("downloads@fieldcrew.app", "Downloads");
    await signUp();
    const today = new Date().toISOString().slice(0, 10);
    const download = (path: string, site: string) =>
      new Request(`${SITE}${path}`, { headers: { Cookie: admin.cookie, "Sec-Fetch-Site": site, "Sec-Fetch-Mode": "navigate" } });
    for (const site of ["cross-site", "same-site"]) {
      const exported = await handleExport(download("/api/operator/export?format=csv", site));
      expect(exported.status, site).toBe(403);
      expect(await exported.text()).toBe("This link came from another site, so it was not followed. Open it from the console.");
      expect((await handleCampaignsCsv(download(`/api/operator/campaigns?from=${today}&to=${today}`, site))).status, site).toBe(403);
    }
    expect(await auditOf(admin.id)).toEqual([]);
    for (const site of ["same-origin", "none"])
      expect((await handleExport(download("/api/operator/export?format=csv", site))).status, site).toBe(200);
    expect(await auditOf(admin.id)).toEqual(["export", "export"]);
  });

  it("own-page checks compare with SITE_URL's origin, not the Host the request names", async () => {
    const admin = await signedInOperator("hosts@fieldcrew.app", "Hosts");
    const id = await signUp();
    const evil = "http://evil.example";
    const removal = await handleRemove(
      new Request(`${evil}/api/operator/entries/${id}/remove`, {
        method: "POST",
        headers: { Cookie: admin.cookie, Origin: evil, Host: "evil.example", "Sec-Fetch-Site": "same-origin" },
      }),
      String(id),
    );
    expect(removal.status).toBe(403);
    expect(await getDatabase().waitlistEntry.count({ where: { id } })).toBe(1);
    const signIn = await authRoute()(
      new Request(`${evil}/api/auth/sign-in/magic-link`, {
        method: "POST",
        headers: { Origin: evil, Host: "evil.example", "Content-Type": "application/json", [CLIENT_ADDRESS_HEADER]: "203.0.113.9" },
        body: "{}",
      }),
    );
    expect(signIn.status).toBe(403);
  });
});
