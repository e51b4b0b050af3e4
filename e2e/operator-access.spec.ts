/**
 * Every door of the console tried without the key: no session, a forged cookie,
 * an expired session, a removed operator's session, and a post from another
 * site. None may show a sign-up or change anything.
 */
import type { APIRequestContext, BrowserContext } from "@playwright/test";
import { storedEntry, withTestDatabase } from "./support/database";
import { enrolNewOperator, waitlistCli } from "./support/operator";
import { expect, test } from "./support/test";
import { signUpThroughApi, uniqueVisitor } from "./support/waitlist";

const PAGES = [
  "/operator",
  "/operator?assignee=me",
  "/operator/overview",
  "/operator/entries",
  "/operator/entries?q=a",
  "/operator/invitation",
  "/operator/audit",
  "/operator/account",
  "/operator/operators",
  "/operator/confirm?return=%2Foperator",
  "/operator/not-allowed?need=export",
];

/** The routes that act, each as a browser would send it. */
function actions(entryId: number, deliveryId: string) {
  return [
    { method: "GET", path: "/api/operator/export?format=csv" },
    { method: "GET", path: "/api/operator/export?format=json" },
    { method: "POST", path: `/api/operator/entries/${entryId}/remove` },
    { method: "POST", path: `/api/operator/deliveries/${deliveryId}/redeliver` },
    {
      method: "POST",
      path: `/api/operator/follow-up`,
      form: { action: "change", to: "closed", closedReason: "not_a_fit", id: String(entryId) },
    },
    { method: "POST", path: `/api/operator/time-zone`, form: { timeZone: "Europe/Berlin" } },
    { method: "POST", path: `/api/operator/account`, form: { intent: "end-other-sessions" } },
  ] as const;
}

/** A visitor with a failed delivery: what a leak or an unwanted change would show. */
async function victim(request: APIRequestContext) {
  const visitor = uniqueVisitor("access");
  await signUpThroughApi(request, visitor);
  const entry = storedEntry(visitor.email)!;
  const deliveryId = `access-${entry.id}`;
  withTestDatabase((sqlite) =>
    sqlite
      .prepare(
        "INSERT INTO outbox (id, kind, entry_id, status, attempts, next_attempt_at, created_at) VALUES (?, 'webhook', ?, 'failed', 3, ?, ?)",
      )
      .run(deliveryId, entry.id, new Date().toISOString(), new Date().toISOString()),
  );
  return { visitor, entryId: Number(entry.id), deliveryId };
}

async function expectNoWayIn(
  request: APIRequestContext,
  baseURL: string,
  target: Awaited<ReturnType<typeof victim>>,
  headers: Record<string, string> = {},
) {
  for (const path of PAGES) {
    const response = await request.get(path, { headers });
    const body = await response.text();
    expect(response.url(), path).toMatch(/\/operator\/sign-in$/);
    expect(body, path).not.toContain(target.visitor.email);
    expect(body, path).toContain("Sign in to the console");
  }
  for (const action of actions(target.entryId, target.deliveryId)) {
    const { method, path } = action;
    const form = "form" in action ? action.form : undefined;
    const response = await request.fetch(path, {
      method,
      form,
      headers: { ...headers, Origin: new URL(baseURL).origin, "Sec-Fetch-Site": "same-origin" },
      maxRedirects: 0,
    });
    const body = await response.text();
    expect(body, path).not.toContain(target.visitor.email);
    if (method === "GET") expect(response.status(), path).toBe(401);
    else expect([303, 403], path).toContain(response.status());
  }
  expect(storedEntry(target.visitor.email), "the entry is still there").toBeDefined();
  const followUps = withTestDatabase(
    (sqlite) => (sqlite.prepare("SELECT count(*) AS n FROM follow_up_events WHERE entry_id = ?").get(target.entryId) as { n: number }).n,
  );
  expect(followUps, "no follow-up was recorded").toBe(0);
  const status = withTestDatabase(
    (sqlite) => (sqlite.prepare("SELECT status FROM outbox WHERE id = ?").get(target.deliveryId) as { status: string }).status,
  );
  expect(status, "the delivery is still failed").toBe("failed");
}

async function sessionCookie(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name.endsWith("session_token"));
  if (!cookie) throw new Error("no session cookie");
  return `${cookie.name}=${cookie.value}`;
}

test.describe("the console without the key", () => {
  test("no session, or a forged one: the sign-in page, no data, nothing changed", async ({ request, baseURL }) => {
    const target = await victim(request);
    await expectNoWayIn(request, baseURL!, target);
    await expectNoWayIn(request, baseURL!, target, { Cookie: "fieldcrew-operator.session_token=forged.c2lnbmF0dXJl" });
  });

  test("an expired session and a removed operator's session stop working at once", async ({ page, browser, request, baseURL }) => {
    // Two enrolments and three sweeps of every door: longer than the default 30 s on a slow machine.
    test.setTimeout(90_000);
    const target = await victim(request);
    const email = await enrolNewOperator(page, "expired", baseURL!);
    const cookie = await sessionCookie(page.context());
    // The session works...
    expect(await (await request.get("/operator/entries", { headers: { Cookie: cookie } })).text()).toContain("Entries");
    // ...until it is past its absolute end.
    withTestDatabase((sqlite) =>
      sqlite
        .prepare("UPDATE operator_sessions SET expires_at = ? WHERE operator_id = (SELECT id FROM operators WHERE email = ?)")
        .run("2020-01-01T00:00:00.000+00:00", email),
    );
    await expectNoWayIn(request, baseURL!, target, { Cookie: cookie });

    // A second browser (Chromium allows one built-in authenticator per browser context).
    const other = await browser.newContext({ baseURL });
    const otherPage = await other.newPage();
    const removed = await enrolNewOperator(otherPage, "removed", baseURL!);
    const removedCookie = await sessionCookie(other);
    expect(await (await request.get("/operator/entries", { headers: { Cookie: removedCookie } })).text()).toContain("Entries");
    waitlistCli(["operators", "remove", removed, "--yes"], baseURL!);
    await expectNoWayIn(request, baseURL!, target, { Cookie: removedCookie });
    await otherPage.goto("/operator/entries");
    await expect(otherPage).toHaveURL(/\/operator\/sign-in$/);
    await other.close();
  });

  test("an idle session ends", async ({ page, request, baseURL }) => {
    const target = await victim(request);
    const email = await enrolNewOperator(page, "idle", baseURL!);
    const cookie = await sessionCookie(page.context());
    withTestDatabase((sqlite) =>
      sqlite
        .prepare("UPDATE operator_sessions SET updated_at = ? WHERE operator_id = (SELECT id FROM operators WHERE email = ?)")
        .run(new Date(Date.now() - 2 * 3_600_000).toISOString().replace("Z", "+00:00"), email),
    );
    await expectNoWayIn(request, baseURL!, target, { Cookie: cookie });
  });

  test("a signed-in operator's browser cannot be made to act from another site", async ({ page, request, baseURL }) => {
    const target = await victim(request);
    await enrolNewOperator(page, "csrf", baseURL!);
    const cookie = await sessionCookie(page.context());
    for (const path of [
      `/api/operator/entries/${target.entryId}/remove`,
      `/api/operator/deliveries/${target.deliveryId}/redeliver`,
      "/api/operator/sign-out",
      "/api/auth/sign-out",
    ]) {
      const response = await request.post(path, {
        headers: { Cookie: cookie, Origin: "https://attacker.example", "Sec-Fetch-Site": "cross-site" },
        maxRedirects: 0,
      });
      expect(response.status(), path).toBe(403);
    }
    expect(storedEntry(target.visitor.email)).toBeDefined();
    // Still signed in: the cross-site sign-out did nothing either.
    expect(await (await request.get("/operator/entries", { headers: { Cookie: cookie } })).text()).toContain("Entries");
  });

  test("the authentication endpoints the console does not use are not there", async ({ request }) => {
    for (const path of ["/api/auth/sign-up/email", "/api/auth/update-user", "/api/auth/list-sessions", "/api/auth/delete-user"]) {
      const response = await request.post(path, {
        data: { email: "x@example.com", name: "x", password: "password1234" },
        headers: { Origin: "http://localhost" },
      });
      expect(response.status(), path).toBe(404);
    }
  });
});
