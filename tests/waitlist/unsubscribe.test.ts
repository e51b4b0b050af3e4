/**
 * One-click unsubscribe (issue 39, RFC 8058), through the real route and a real SMTP server: every
 * message to a visitor carries its entry's own List-Unsubscribe address and List-Unsubscribe-Post,
 * both under the DKIM signature; a POST there (no cookie, no page) stops all further mail to the
 * entry and is audited; a GET changes nothing and leads to a page with one button and nothing about
 * the person (issue 61); a made-up, altered or other-purpose token does
 * nothing. After it, no confirmation, link or invitation is emailed, and both the visitor's page
 * and the operator's entry page say why.
 */
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { dkimVerify } from "mailauth/lib/dkim/verify";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import * as route from "@/app/api/waitlist/unsubscribe/[token]/route";
import { getDatabase } from "@/lib/db";
import { changeFollowUp } from "@/lib/follow-up/changes";
import { dkimRecord, newDkimKey } from "@/lib/mail/dkim";
import { entryDetail } from "@/lib/console/queries";
import { confirmationEmailChannel } from "@/lib/waitlist/confirmation-email";
import { entryToken, UNSUBSCRIBED_PROBLEM } from "@/lib/waitlist/entry-link";
import { oweLinkAgain } from "@/lib/waitlist/link-again";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { loadUnsubscribePage } from "@/lib/waitlist/unsubscribe";
import { loadEntryPage } from "@/lib/waitlist/visitor-entry";
import type { WaitlistEntry } from "@/lib/generated/prisma/client";
import { setUpTestDatabase } from "../support/database";
import { testSecret } from "../support/challenge";
import { signedUpOwing } from "../support/deliveries";
import { mailCatcherForTests } from "../support/mail-catcher";
import { validSignup } from "../support/requests";

setUpTestDatabase();

const SITE = "http://localhost:3000";
const DOMAIN = "fieldcrew.example";
const mail = mailCatcherForTests();
const key = newDkimKey();

/** A stored sign-up owing a webhook and its confirmation email. */
async function signedUp(): Promise<WaitlistEntry> {
  const result = await signedUpOwing(
    waitlistSignupSchema.parse(validSignup({ email: `leaving.${Date.now()}.${Math.random()}@example.com` })),
    ["webhook", "email"],
  );
  if (result.outcome !== "created") throw new Error(result.outcome);
  return getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: result.entry.id } });
}

const channel = () =>
  confirmationEmailChannel({
    smtpUrl: mail.smtpUrl(),
    from: `FieldCrew <hello@${DOMAIN}>`,
    secret: testSecret(),
    siteUrl: SITE,
    dkim: { domainName: DOMAIN, keySelector: "fc2026", privateKey: key },
  });
const delivery = (entry: WaitlistEntry, event = "created") => ({
  id: crypto.randomUUID(),
  kind: "email" as const,
  entryId: entry.id,
  attempt: 1,
  event,
  payload: null,
});

const received = () => mail.received();

/** What a mail program does with the List-Unsubscribe-Post header: a POST of that one field, nothing else. */
function oneClick(address: string): Promise<Response> {
  const token = address.slice(address.lastIndexOf("/") + 1);
  return route.POST(
    new Request(address, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    }),
    {
      params: Promise.resolve({ token }),
    },
  );
}

async function unsubscribeAddressOf(entry: WaitlistEntry): Promise<string> {
  expect(await channel()(delivery(entry), entry, new AbortController().signal, Date.now() + 10_000)).toEqual({ delivered: true });
  const [raw] = received();
  const { headerLines } = await simpleParser(raw!);
  const header = (name: string) =>
    headerLines
      .find((line) => line.key === name)
      ?.line.replace(/^[^:]+:\s*/, "")
      .replace(/\r?\n\s+/g, "");
  expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
  const address = header("list-unsubscribe")!.replace(/^<|>$/g, "");
  expect(address).toMatch(new RegExp(`^${SITE}/api/waitlist/unsubscribe/[0-9a-f-]+\\.[A-Za-z0-9_-]{43}$`));
  return address;
}

describe("one-click unsubscribe", () => {
  it("is offered by every message to a visitor, under the DKIM signature as RFC 8058 requires", async () => {
    const entry = await signedUp();
    await unsubscribeAddressOf(entry);
    const [raw] = received();
    const resolver = async () => [[dkimRecord(key)]];
    const { results } = await dkimVerify(raw!, { resolver: resolver as never });
    expect(results[0]!.status.result).toBe("pass");
    const signed = /\bh=([^;]+)/
      .exec(raw!.toString().replace(/\r?\n\s+/g, ""))![1]!
      .toLowerCase()
      .split(":");
    expect(signed).toEqual(expect.arrayContaining(["list-unsubscribe", "list-unsubscribe-post"]));
  });

  it("a POST (no cookie, no page) stops all mail to the entry, gives up what was pending and is audited; once is enough", async () => {
    const entry = await signedUp();
    const address = await unsubscribeAddressOf(entry);
    const answer = await oneClick(address);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toMatch(/unsubscribed/);

    const after = await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: entry.id } });
    expect(after.unsubscribedAt).toBeInstanceOf(Date);
    const rows = await getDatabase().outboxMessage.findMany({ where: { entryId: entry.id }, orderBy: { kind: "asc" } });
    // The confirmation still pending in the outbox is given up; the webhook (not mail) goes as usual.
    expect(rows.map((row) => [row.kind, row.status, row.lastError])).toEqual([
      ["email", "failed", UNSUBSCRIBED_PROBLEM],
      ["webhook", "pending", null],
    ]);
    const audited = await getDatabase().operatorAction.findMany({ where: { entryId: entry.id } });
    expect(audited.map((row) => [row.action, row.actor])).toEqual([["unsubscribed", "visitor (one-click unsubscribe)"]]);

    expect((await oneClick(address)).status).toBe(200);
    expect((await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: entry.id } })).unsubscribedAt).toEqual(after.unsubscribedAt);
    expect(await getDatabase().operatorAction.count({ where: { entryId: entry.id } })).toBe(1);
  });

  it("a GET (a link scanner, an unsubscribe service) changes nothing and leads to a page with one button and nothing about the person", async () => {
    const entry = await signedUp();
    const address = await unsubscribeAddressOf(entry);
    const token = address.slice(address.lastIndexOf("/") + 1);
    const answer = await route.GET(new Request(address), { params: Promise.resolve({ token }) });
    expect(answer.status).toBe(303);
    // Not the visitor's own page (name, phone, company, download, removal): the unsubscribe page, by the same token.
    expect(answer.headers.get("location")).toBe(`/waitlist/unsubscribe/${token}`);
    expect(answer.headers.get("location")).not.toContain(entryToken(testSecret(), entry.publicId!));
    expect((await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: entry.id } })).unsubscribedAt).toBeNull();
    // What the page can show is whether mail still goes to the entry, and nothing else.
    expect(await loadUnsubscribePage(token)).toEqual({ state: "found", entry: { unsubscribed: false } });
    expect(await loadUnsubscribePage(entryToken(testSecret(), entry.publicId!))).toEqual({ state: "invalid" });
  });

  it("the page's button posts to the same address and comes back to the page, which then says it is done", async () => {
    const entry = await signedUp();
    const address = await unsubscribeAddressOf(entry);
    const token = address.slice(address.lastIndexOf("/") + 1);
    const answer = await route.POST(
      new Request(`${address}?from=page`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      }),
      { params: Promise.resolve({ token }) },
    );
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`/waitlist/unsubscribe/${token}`);
    expect((await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: entry.id } })).unsubscribedAt).toBeInstanceOf(Date);
    expect(await loadUnsubscribePage(token)).toEqual({ state: "found", entry: { unsubscribed: true } });
  });

  it("refuses a made-up or altered token, and the visitor page's token (another purpose), changing nothing", async () => {
    const entry = await signedUp();
    const address = await unsubscribeAddressOf(entry);
    const altered = `${address.slice(0, -1)}${address.endsWith("A") ? "B" : "A"}`;
    const pageToken = `${SITE}/api/waitlist/unsubscribe/${entryToken(testSecret(), entry.publicId!)}`;
    for (const wrong of [altered, pageToken, `${SITE}/api/waitlist/unsubscribe/not-a-token`]) {
      const answer = await oneClick(wrong);
      expect(answer.status, wrong).toBe(404);
      expect(answer.headers.get("x-error-code")).toBe("link_invalid");
    }
    expect((await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: entry.id } })).unsubscribedAt).toBeNull();
  });

  it("after it, nothing more is emailed: no link asked for again, no invitation, not even one claimed before", async () => {
    const entry = await signedUp();
    await oneClick(await unsubscribeAddressOf(entry));
    const before = await getDatabase().outboxMessage.count({ where: { entryId: entry.id, kind: "email" } });

    expect(await oweLinkAgain(getDatabase(), entry.email)).toBe(false);
    const ana = { email: "ana@fieldcrew.app", operatorId: null };
    const [invited] = await changeFollowUp(getDatabase(), [entry.id], { to: "invited" }, ana, { deliveries: ["webhook", "email"] });
    expect(invited).toMatchObject({ outcome: "changed", to: "invited" });
    expect(await getDatabase().outboxMessage.count({ where: { entryId: entry.id, kind: "email" } })).toBe(before);

    // A message claimed just before the click is not sent either.
    const unsubscribed = await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: entry.id } });
    for (const file of readdirSync(mail.dir)) rmSync(path.join(mail.dir, file));
    expect(await channel()(delivery(unsubscribed, "invitation"), unsubscribed, new AbortController().signal, Date.now() + 10_000)).toEqual({
      delivered: false,
      retry: false,
      problem: UNSUBSCRIBED_PROBLEM,
    });
    expect(received()).toEqual([]);
  });

  it("is shown to the visitor on their page and to operators on the entry's page", async () => {
    const entry = await signedUp();
    await oneClick(await unsubscribeAddressOf(entry));
    const page = await loadEntryPage(entryToken(testSecret(), entry.publicId!), getDatabase, testSecret());
    expect(page.state === "found" && page.entry.unsubscribedAt).toBeInstanceOf(Date);
    expect((await entryDetail(getDatabase(), entry.id))!.unsubscribedAt).toBeInstanceOf(Date);
  });
});
