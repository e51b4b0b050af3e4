/**
 * Roles, the fresh sign-in for dangerous acts, the console's Server Actions' own
 * checks and the Operators page, in Chromium against the production server with a
 * virtual passkey authenticator.
 */
import type { BrowserContext } from "@playwright/test";
import { withTestDatabase } from "./support/database";
import { addVirtualAuthenticator, enrolNewOperator, enrolWithAuthenticator, uniqueOperatorEmail } from "./support/operator";
import { expect, test } from "./support/test";
import { signUpThroughApi, uniqueVisitor } from "./support/waitlist";
import { storedEntry } from "./support/database";
import { mailsTo } from "./support/mail";

const operatorIdOf = (email: string) =>
  withTestDatabase((sqlite) => (sqlite.prepare("SELECT id FROM operators WHERE email = ?").get(email) as { id: string }).id);
const sessionsOf = (email: string) =>
  withTestDatabase(
    (sqlite) => sqlite.prepare("SELECT id FROM operator_sessions WHERE operator_id = ?").all(operatorIdOf(email)) as { id: string }[],
  );
const actionsOf = (email: string) =>
  withTestDatabase((sqlite) =>
    (
      sqlite.prepare("SELECT action FROM operator_actions WHERE operator_id = ? ORDER BY id").all(operatorIdOf(email)) as {
        action: string;
      }[]
    ).map((row) => row.action),
  );
const passkeysOf = (email: string) =>
  withTestDatabase(
    (sqlite) =>
      (sqlite.prepare("SELECT count(*) AS n FROM operator_passkeys WHERE operator_id = ?").get(operatorIdOf(email)) as { n: number }).n,
  );

/** Makes the operator's passkey sign-in 11 minutes old: still signed in, no longer fresh. */
function ageSignIn(email: string) {
  const eleven = new Date(Date.now() - 11 * 60_000).toISOString().replace("Z", "+00:00");
  withTestDatabase((sqlite) =>
    sqlite.prepare("UPDATE operator_sessions SET created_at = ? WHERE operator_id = ?").run(eleven, operatorIdOf(email)),
  );
}

async function sessionCookie(context: BrowserContext) {
  const cookie = (await context.cookies()).find((c) => c.name.endsWith("session_token"));
  if (!cookie) throw new Error("no session cookie");
  return cookie;
}

test.describe("roles and the fresh sign-in", () => {
  test("adding a passkey after 10 minutes: confirm with the passkey, back to Account, the old session replaced", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const { email, authenticator } = await enrolWithAuthenticator(page, "stepup", baseURL!);
    ageSignIn(email);
    await page.goto("/operator/account");
    await expect(page.getByText("Adding a passkey needs a passkey sign-in within the last 10 minutes.")).toBeVisible();
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "needs a passkey sign-in within the last 10 minutes" })).toBeVisible();
    expect(passkeysOf(email)).toBe(1);
    const before = sessionsOf(email);

    await page.getByRole("alert").getByRole("link", { name: "Confirm it's you" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Confirm it's you" })).toBeVisible();
    await page.getByRole("button", { name: "Confirm with my passkey" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
    await expect(page.getByText("Adding a passkey needs a passkey sign-in")).toHaveCount(0);
    // One session still, and not the old one.
    const after = sessionsOf(email);
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(before[0]!.id);

    // The device would refuse a second passkey for the same account; wiped, it makes a new one.
    await authenticator.forgetPasskeys();
    await page.getByLabel("Name it (optional)").fill("Security key");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect(page.getByText("Security key", { exact: true })).toBeVisible();
    expect(passkeysOf(email)).toBe(2);
    await expect(page.getByText(/last used/)).toHaveCount(1);
    await expect(page.getByText("not used to sign in yet")).toHaveCount(1);
    // Enrolment (its passkey, its sign-in), the step-up sign-in, the new passkey.
    expect(actionsOf(email)).toEqual(["passkey_added", "sign_in", "sign_in", "passkey_added"]);
  });

  test("a member works the queue and the list, and meets none of an admin's doors", async ({ page, request, baseURL }) => {
    test.setTimeout(90_000);
    const visitor = uniqueVisitor("member");
    await signUpThroughApi(request, visitor);
    const entryId = Number(storedEntry(visitor.email)!.id);
    const email = await enrolNewOperator(page, "member", baseURL!, "member");

    const nav = page.getByRole("navigation", { name: "Console" });
    await expect(nav.getByRole("link", { name: "Entries" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Operators" })).toHaveCount(0);
    for (const path of ["/operator/audit", "/operator/operators"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/operator\/not-allowed\?need=/);
      await expect(page.getByRole("heading", { level: 1, name: "Not part of your role" })).toBeVisible();
    }
    await page.goto("/operator/entries");
    await expect(page.getByRole("link", { name: "Download CSV" })).toHaveCount(0);
    await page.goto(`/operator/entries/${entryId}`);
    await expect(page.getByText(visitor.email)).toBeVisible();
    await expect(page.getByRole("link", { name: "Remove entry…" })).toHaveCount(0);
    await page.goto("/operator/invitation");
    await expect(page.getByText("Only an admin can change the invitation.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);

    // The doors themselves, with the member's cookie, from the console's own origin.
    const cookie = await sessionCookie(page.context());
    const headers = { Cookie: `${cookie.name}=${cookie.value}`, Origin: new URL(baseURL!).origin, "Sec-Fetch-Site": "same-origin" };
    expect((await request.get("/api/operator/export?format=csv", { headers })).status()).toBe(403);
    expect((await request.post(`/api/operator/entries/${entryId}/remove`, { headers, maxRedirects: 0 })).status()).toBe(403);
    expect(storedEntry(visitor.email)).toBeDefined();
    // Their follow-up works.
    await page.goto(`/operator/entries/${entryId}`);
    await page.getByLabel("Add a note").fill("Called, left a message.");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect(page.getByText("Called, left a message.")).toBeVisible();
    expect(actionsOf(email)).toContain("follow_up_noted");
  });

  test("the console's Server Actions check the role, the fresh sign-in and the page they came from", async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const admin = await enrolNewOperator(page, "actions", baseURL!);
    await page.goto("/operator/invitation");

    // A save as it leaves the browser: the Server Action's request, kept to be sent again below.
    const posted = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/operator/invitation"));
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Saved. Invitations from now on use this text.")).toBeVisible();
    const saved = await posted;
    const edits = () => actionsOf(admin).filter((action) => action === "invitation_edited").length;
    expect(edits()).toBe(1);

    // The same post without the browser's Origin and Sec-Fetch-Site (a script, or a browser that leaves them out).
    const cookie = await sessionCookie(page.context());
    const replay = await request.post("/operator/invitation", {
      headers: {
        "Content-Type": saved.headers()["content-type"]!,
        "Next-Action": saved.headers()["next-action"]!,
        Accept: "text/x-component",
        Cookie: `${cookie.name}=${cookie.value}`,
      },
      data: saved.postDataBuffer()!,
    });
    expect(await replay.text()).toContain("This request did not come from one of this site's pages, so nothing was changed.");
    expect(edits()).toBe(1);

    // An admin whose sign-in is not fresh: sent to confirm, nothing saved.
    ageSignIn(admin);
    await page.reload();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "needs a passkey sign-in within the last 10 minutes" })).toBeVisible();
    expect(edits()).toBe(1);

    // A member's session in the admin's page: refused by role.
    const memberContext = await browser.newContext({ baseURL });
    const memberPage = await memberContext.newPage();
    await enrolNewOperator(memberPage, "actions-member", baseURL!, "member");
    const memberCookie = await sessionCookie(memberContext);
    await page.context().clearCookies();
    await page.context().addCookies([memberCookie]);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Your role does not include this" })).toBeVisible();
    expect(edits()).toBe(1);
    await memberContext.close();
  });

  test("an admin adds an operator from the console, the link shown once enrols them, then changes their role and removes them", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const admin = await enrolNewOperator(page, "admin", baseURL!);
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Operators" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Operators" })).toBeVisible();
    const newcomer = uniqueOperatorEmail("newcomer");
    await page.getByLabel("Email").fill(newcomer);
    await page.getByLabel("Name (optional)").fill("Newcomer");
    await page.getByRole("button", { name: "Add operator" }).click();
    // With SMTP (as this server has), the link goes to them by email and is not shown.
    const status = page
      .getByRole("status")
      .filter({ hasText: `${newcomer} is now an operator (member). The one-time enrolment link was emailed to ${newcomer}` });
    await expect(status).toBeVisible();
    await expect(status.locator(".font-mono")).toHaveCount(0);
    await expect.poll(async () => (await mailsTo(newcomer)).length, { timeout: 15_000 }).toBe(1);
    const link = /https?:\/\/\S+\/operator\/enrol#[\w-]{43}/.exec((await mailsTo(newcomer))[0]!.text ?? "")?.[0];
    expect(link).toBeDefined();

    const other = await browser.newContext({ baseURL });
    const theirs = await other.newPage();
    await addVirtualAuthenticator(theirs);
    await theirs.goto(link!);
    await theirs.getByRole("button", { name: "Create my passkey" }).click();
    await expect(theirs.getByRole("heading", { level: 1, name: "Follow-up queue" })).toBeVisible();

    await page.reload();
    const row = page.getByRole("listitem").filter({ hasText: newcomer });
    await row.getByLabel(`Role of ${newcomer}`).selectOption("admin");
    await row.getByRole("button", { name: "Set role" }).click();
    await expect(page.getByText(`${newcomer} is now an admin.`)).toBeVisible();
    await row.getByLabel("Yes, remove").check();
    await row.getByRole("button", { name: "Remove" }).click();
    await expect(page.getByText(`Removed ${newcomer}: their passkeys, sessions and links no longer work.`)).toBeVisible();
    await theirs.goto("/operator");
    await expect(theirs).toHaveURL(/\/operator\/sign-in$/);
    await other.close();
    expect(actionsOf(admin)).toEqual(expect.arrayContaining(["operator_invited", "operator_role_changed", "operator_removed"]));
  });
});
