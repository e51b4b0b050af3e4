/**
 * What the console and the operator tool share (lib/console/, lib/auth/invitations.ts),
 * on a real migrated SQLite file with both drivers: operators and their enrolment
 * links, the summary tables the triggers keep, the list's filters, search and
 * paging, and the `operators` commands as the shell runs them.
 */
import { describe, expect, it } from "vitest";
import { invitedOperator, spendInvitation } from "@/lib/auth/invitations";
import { getDatabase } from "@/lib/db";
import { listActions, type Actor } from "@/lib/audit/trail";
import { listPage, parseListQuery } from "@/lib/console/list";
import { addOperator, enrolAgain, listOperators, OperatorProblem, removeOperator } from "@/lib/console/operators";
import { overview } from "@/lib/console/overview";
import { removeById } from "@/lib/console/queries";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { setUpTestDatabase } from "../support/database";
import { validSignup } from "../support/requests";
import { waitlistCommand } from "../support/waitlist-command";

const { file } = setUpTestDatabase();
const SITE = "http://localhost:3000";
const shell: Actor = { email: "shell (test@host)", operatorId: null };

const tokenOf = (link: string) => new URL(link).hash.slice(1);

async function signUp(fields: Record<string, unknown> = {}) {
  const result = await addToWaitlist(waitlistSignupSchema.parse({ ...validSignup(), ...fields }));
  if (result.outcome !== "created") throw new Error(result.outcome);
  return result.entry;
}

describe("operators and their enrolment links", () => {
  it("adds an operator with a 24-hour link that works once, for them only", async () => {
    const db = getDatabase();
    const now = new Date("2026-11-23T12:00:00Z");
    const { link, expiresAt, email } = await addOperator(db, { email: " Ana@FieldCrew.app ", name: "Ana" }, SITE, shell, now);
    expect(email).toBe("ana@fieldcrew.app");
    expect(link).toMatch(/^http:\/\/localhost:3000\/operator\/enrol#[\w-]{43}$/);
    expect(expiresAt.toISOString()).toBe("2026-11-24T12:00:00.000Z");
    const token = tokenOf(link);
    const operator = await invitedOperator(db, token, now);
    expect(operator).toMatchObject({ email: "ana@fieldcrew.app", name: "Ana" });
    // Not after it expires, not for someone else, and only once.
    expect(await invitedOperator(db, token, new Date("2026-11-24T12:00:01Z"))).toBeUndefined();
    expect(await spendInvitation(db, token, "someone-else", now)).toBe(false);
    expect(await spendInvitation(db, token, operator!.id, now)).toBe(true);
    expect(await spendInvitation(db, token, operator!.id, now)).toBe(false);
    expect(await invitedOperator(db, token, now)).toBeUndefined();
    // Only the hash is stored.
    const stored = await db.operatorInvitation.findMany();
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it("refuses a second add, re-enrols, lists, removes with everything of theirs, and audits each", async () => {
    const db = getDatabase();
    await addOperator(db, { email: "bo@fieldcrew.app", role: "member" }, SITE, shell);
    await expect(addOperator(db, { email: "BO@fieldcrew.app" }, SITE, shell)).rejects.toThrow(OperatorProblem);
    await expect(addOperator(db, { email: "not an address" }, SITE, shell)).rejects.toThrow(/not an email address/);
    await expect(enrolAgain(db, "nobody@fieldcrew.app", SITE, shell)).rejects.toThrow(/not an operator/);
    const again = await enrolAgain(db, "bo@fieldcrew.app", SITE, shell);
    expect(await invitedOperator(db, tokenOf(again.link))).toBeDefined();
    expect(await listOperators(db)).toMatchObject([
      { email: "bo@fieldcrew.app", name: "bo", role: "member", passkeys: 0, sessions: 0, lastSignIn: null },
    ]);

    expect(await removeOperator(db, "bo@fieldcrew.app", shell)).toBe(true);
    expect(await removeOperator(db, "bo@fieldcrew.app", shell)).toBe(false);
    expect(await db.operatorInvitation.count()).toBe(0);
    expect((await listActions(db, { limit: 10 })).map((row) => row.action)).toEqual([
      "operator_removed",
      "operator_invited",
      "operator_invited",
    ]);
  });

  it("the operators commands, as the shell runs them", async () => {
    const run = (args: string[], input = "") =>
      waitlistCommand(args, { input, env: { DATABASE_URL: `file:${file}`, SITE_URL: SITE, SMTP_URL: "", MAIL_FROM: "" } });
    const added = await run(["operators", "add", "cy@fieldcrew.app", "--name", "Cy"]);
    expect(added.status).toBe(0);
    expect(added.stdout).toMatch(/cy@fieldcrew\.app is now an operator\.[\s\S]*http:\/\/localhost:3000\/operator\/enrol#/);
    expect((await run(["operators", "add", "cy@fieldcrew.app"])).status).toBe(1);
    // The first operator is an admin; later ones members unless --role says otherwise.
    expect(added.stdout).toContain("Role: admin.");
    expect((await run(["operators", "add", "dee@fieldcrew.app"])).stdout).toContain("Role: member.");
    expect((await run(["operators", "add", "eli@fieldcrew.app", "--role", "owner"])).stderr).toContain('"owner" is not a role');
    expect((await run(["operators", "list"])).stdout).toMatch(
      /cy@fieldcrew\.app\s+Cy\s+admin\s+0\s+no\s+never[\s\S]*dee@fieldcrew\.app\s+dee\s+member/,
    );
    // There is always an admin: the last one can be neither removed nor made a member.
    expect((await run(["operators", "role", "cy@fieldcrew.app", "member"])).stderr).toContain("There must always be an admin");
    expect((await run(["operators", "remove", "cy@fieldcrew.app", "--yes"])).stderr).toContain("There must always be an admin");
    expect((await run(["operators", "role", "dee@fieldcrew.app", "admin"])).stdout).toContain("dee@fieldcrew.app is now an admin.");
    expect((await run(["operators", "remove", "cy@fieldcrew.app"], "no\n")).status).toBe(1);
    expect((await run(["operators", "remove", "cy@fieldcrew.app", "--yes"])).stdout).toContain("Removed cy@fieldcrew.app");
    expect((await run(["operators", "frobnicate"])).status).toBe(2);
    expect((await run(["audit"])).stdout).toMatch(/Removed an operator[\s\S]*Changed an operator[\s\S]*Invited an operator/);
  });
});

describe("the summaries, list and search the console reads", () => {
  it("keeps the overview's figures true through sign-ups, confirmations and removals", async () => {
    const db = getDatabase();
    const a = await signUp({ business_type: "hvac", company_size: "1-5", utm_source: "google", utm_campaign: "fall" });
    await signUp({ business_type: "hvac", company_size: "1-5" });
    await signUp({ business_type: "plumbing", company_size: "50+", utm_source: "google", utm_campaign: "fall" });
    await db.waitlistEntry.update({ where: { id: a.id }, data: { confirmedAt: new Date() } });
    let view = await overview(db, { days: 30, split: "source" });
    expect(view).toMatchObject({ total: 3, confirmed: 1, last24h: 3, last7d: 3 });
    expect(view.series.map((s) => [s.key, s.total])).toEqual([
      ["google", 2],
      ["direct", 1],
    ]);
    expect(view.segments).toEqual([
      { businessType: "hvac", companySize: "1-5", signups: 2 },
      { businessType: "plumbing", companySize: "50+", signups: 1 },
    ]);
    expect(await removeById(db, a.id, shell)).toBe(true);
    view = await overview(db, { days: 30, split: "campaign" });
    expect(view).toMatchObject({ total: 2, confirmed: 0 });
    expect(view.series.map((s) => [s.key, s.total])).toEqual([
      ["fall", 1],
      ["none", 1],
    ]);
    expect(view.segments).toEqual([
      { businessType: "hvac", companySize: "1-5", signups: 1 },
      { businessType: "plumbing", companySize: "50+", signups: 1 },
    ]);
    expect((await listActions(db, { limit: 5, entryId: a.id })).map((row) => [row.action, row.actor])).toEqual([
      ["entry_removed", shell.email],
    ]);
  });

  it("filters, searches any part of a name, company or email, and pages both ways without gaps", async () => {
    const db = getDatabase();
    for (let i = 0; i < 7; i++)
      await signUp({ company_name: `Ridgeline ${i}`, contact_name: `Person ${i}`, business_type: i % 2 ? "hvac" : "plumbing" });
    await signUp({
      company_name: "Zapata Electric",
      contact_name: "Olga Zapata",
      email: "olga@zapata-electric.example",
      business_type: "electrical",
    });

    const query = (params: Record<string, string>) => parseListQuery(new URLSearchParams(params)).query;
    expect((await listPage(db, query({ q: "apata El" }))).entries.map((e) => e.company_name)).toEqual(["Zapata Electric"]);
    expect((await listPage(db, query({ q: "zapata-electric.ex" }))).entries).toHaveLength(1);
    expect((await listPage(db, query({ q: "olga z" }))).entries.map((e) => e.contact_name)).toEqual(["Olga Zapata"]);
    // Shorter than a trigram: refused with a reason, not a scan of every row.
    expect(parseListQuery(new URLSearchParams({ q: "Ol" })).problems).toEqual(["q: Search needs at least 3 characters."]);
    expect((await listPage(db, query({ q: '"; DROP' }))).entries).toEqual([]);
    expect((await listPage(db, query({ type: "hvac" }))).entries).toHaveLength(3);
    expect(parseListQuery(new URLSearchParams({ type: "spaceships", from: "2026-13-45" })).problems).toHaveLength(2);

    // Pages of 3 over the 7 Ridgeline rows, newest first, then back.
    const first = await listPage(db, query({ q: "Ridgeline" }), 3);
    expect(first.entries.map((e) => e.company_name)).toEqual(["Ridgeline 6", "Ridgeline 5", "Ridgeline 4"]);
    expect(first.newer).toBeNull();
    const second = await listPage(db, query({ q: "Ridgeline", after: first.older! }), 3);
    expect(second.entries.map((e) => e.company_name)).toEqual(["Ridgeline 3", "Ridgeline 2", "Ridgeline 1"]);
    const third = await listPage(db, query({ q: "Ridgeline", after: second.older! }), 3);
    expect(third.entries.map((e) => e.company_name)).toEqual(["Ridgeline 0"]);
    expect(third.older).toBeNull();
    const back = await listPage(db, query({ q: "Ridgeline", before: third.newer! }), 3);
    expect(back.entries.map((e) => e.company_name)).toEqual(["Ridgeline 3", "Ridgeline 2", "Ridgeline 1"]);
    expect(back.newer).not.toBeNull();
  });
});
