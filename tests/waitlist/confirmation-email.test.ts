/**
 * The confirmation email, end to end below the browser: the real handler
 * stores a sign-up and its outbox row, the real worker sends it through
 * nodemailer to a real SMTP server on loopback (smtp-server), and the message
 * that arrived is read back with mailparser.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";
import type { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { captureLog } from "@/lib/log";
import { startMailCatcher } from "@/e2e/support/mail-catcher";
import { getDatabase } from "@/lib/db";
import { parseEnv } from "@/lib/env";
import { DeliveryWorker } from "@/lib/outbox/worker";
import { SharedRateLimiter } from "@/lib/security/rate-limit";
import { CONFIRMATION_SUBJECT, confirmationEmail, confirmationEmailChannel } from "@/lib/waitlist/confirmation-email";
import { publicIdFromToken } from "@/lib/waitlist/entry-link";
import { ENTRY_PAGE_PATH } from "@/lib/content/paths";
import { oweNewSignups, owingNewSignups } from "@/lib/waitlist/signup-deliveries";
import { signUpEndpoint } from "../support/sign-up";
import { removeEntry } from "@/lib/waitlist/visitor-entry";
import { setUpTestDatabase } from "../support/database";
import { testSecret } from "../support/challenge";
import { jsonRequest, signupBody } from "../support/requests";

setUpTestDatabase();

const SITE_URL = "https://fieldcrew.example";
const FROM = "FieldCrew <hello@fieldcrew.example>";
const mailDir = path.join(tmpdir(), `waitlist-mail-${process.pid}-${Date.now()}`);
let catcher: SMTPServer;
let smtpUrl: string;

beforeAll(async () => {
  catcher = await startMailCatcher({ port: 0, dir: mailDir });
  smtpUrl = `smtp://127.0.0.1:${(catcher.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => catcher.close(() => resolve()));
  rmSync(mailDir, { recursive: true, force: true });
});

let clock: number;
beforeEach(() => {
  clock = Date.now() + 60_000;
  for (const file of readdirSync(mailDir)) rmSync(path.join(mailDir, file));
});

/** The real handler, owing a confirmation email for each new sign-up. */
const post = signUpEndpoint({
  secret: testSecret(),
  minSubmitMs: 0,
  siteUrl: "http://localhost:3000",
  limiter: new SharedRateLimiter({ max: 1_000, windowMs: 60_000 }),
  afterResponse: () => {},
});

function worker(options: { perHour?: number; perDomainPerHour?: number } = {}) {
  return new DeliveryWorker({
    channels: { email: confirmationEmailChannel({ smtpUrl, from: FROM, secret: testSecret(), siteUrl: SITE_URL }) },
    owner: "mail-test",
    retryDelaysMs: [1_000, 2_000],
    leaseMs: 60_000,
    now: () => clock,
    hourlyCaps: { email: options.perHour ?? 100 },
    hourlyCapsPerKey: { email: options.perDomainPerHour ?? 100 },
    owe: owingNewSignups(testSecret()),
  });
}

async function received(): Promise<(ParsedMail & { raw: string })[]> {
  const files = readdirSync(mailDir)
    .filter((file) => file.endsWith(".eml"))
    .sort();
  return Promise.all(
    files.map(async (file) => {
      const raw = readFileSync(path.join(mailDir, file), "utf8");
      return Object.assign(await simpleParser(raw), { raw });
    }),
  );
}

const emails = () => getDatabase().outboxMessage.findMany({ where: { kind: "email" }, orderBy: { createdAt: "asc" } });
/** What the site's worker does before each claim: owe the new sign-ups their confirmation emails. */
const owe = () => oweNewSignups(getDatabase(), ["email"], testSecret(), new Date(clock));

describe("the confirmation email", () => {
  it("arrives once, in plain text and HTML, with what was registered, the 48-hour promise and the visitor's own link", async () => {
    expect(
      (
        await post(
          jsonRequest(
            signupBody({
              email: "Owner@Northwind.example",
              company_name: "Northwind Heating & Air",
              business_type: "plumbing",
              company_size: "11-25",
            }),
          ),
        )
      ).status,
    ).toBe(201);
    expect(await worker().sweep()).toBe(1);
    expect(await worker().sweep()).toBe(0);

    const [mail, ...more] = await received();
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(CONFIRMATION_SUBJECT);
    expect(mail!.from!.value).toEqual([{ name: "FieldCrew", address: "hello@fieldcrew.example" }]);
    // As typed (nodemailer writes the domain, which ignores case, in lower case), and the address alone.
    expect(mail!.to).toMatchObject({ value: [{ address: "Owner@northwind.example", name: "" }] });
    expect(mail!.headers.get("auto-submitted")).toBe("auto-generated");
    const [row] = await emails();
    expect(mail!.messageId).toBe(`<${row!.id}@fieldcrew.example>`);
    expect(row).toMatchObject({ status: "delivered", attempts: 1 });

    const text = mail!.text!;
    expect(text).toMatch(/^Hello,\n/);
    expect(text).toContain("Our team will reach out within 48 hours");
    const entry = await getDatabase().waitlistEntry.findFirstOrThrow();
    const when = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(entry.createdAt);
    expect(text).toMatch(
      new RegExp(`What you registered:\n\\s+Business type: Plumbing\n\\s+Company size: 11-25 employees\n\\s+Signed up: ${when} UTC\n\n`),
    );
    const links = text.match(/https?:\/\/\S+/g)!;
    expect(links).toHaveLength(1);
    const link = new URL(links[0]!);
    expect(link.origin).toBe(SITE_URL);
    expect(link.pathname.startsWith(`${ENTRY_PAGE_PATH}/`)).toBe(true);
    expect(publicIdFromToken(testSecret(), link.pathname.split("/").at(-1)!)).toBe(entry.publicId);

    const html = mail!.html as string;
    expect(html).toContain("11-25 employees");
    expect(html).toContain(`href="${link.toString()}"`);
    expect(html).toContain("within 48 hours");
    expect(html).not.toMatch(/<img|<script|src=|https?:\/\/(?!fieldcrew\.example)/); // no pixels, no remote content
  });

  it("carries only our words: nothing the visitor typed reaches its headers, its text or its HTML", async () => {
    const typed = {
      company_name: "Your PayPal account is on hold, verify at https://evil.example",
      contact_name: `"><img src=x onerror=alert(1)>\u001b[31m\u202eevil`,
      notes: "Subject: free money\r\n\r\nhello",
      phone: "+1 (555) 867-5309",
    };
    expect((await post(jsonRequest(signupBody({ ...typed, email: "hostile@example.com" })))).status).toBe(201);
    expect(await worker().sweep()).toBe(1);
    const [mail] = await received();

    expect(mail!.bcc).toBeUndefined();
    expect(mail!.to).toMatchObject({ value: [{ address: "hostile@example.com", name: "" }] });
    expect(mail!.subject).toBe(CONFIRMATION_SUBJECT);
    for (const part of [mail!.raw, mail!.text!, mail!.html as string]) {
      expect(part).not.toMatch(/PayPal|evil|onerror|free money|867-5309/i);
    }
    expect(mail!.text).toContain("Business type: HVAC");
  });

  it("is built from the entry the same way for any values, and shows none of its free text", () => {
    const entry = {
      companyName: "A & B <Co>",
      contactName: "O'Hara",
      notes: "call me",
      businessType: "other",
      companySize: "50+",
      createdAt: new Date("2026-11-23T09:05:00Z"),
    } as Parameters<typeof confirmationEmail>[0];
    const email = confirmationEmail(entry, "https://fieldcrew.example/waitlist/entry/x.y");
    expect(email.text).toContain("Business type: Other\n  Company size: 50+ employees\n  Signed up: November 23, 2026 at 9:05 AM UTC\n");
    for (const part of [email.text, email.html]) expect(part).not.toMatch(/A & B|A &amp; B|Hara|call me/);
  });

  it("is sent once per address ever: not for a duplicate, and not again after the entry is removed and signed up again", async () => {
    expect((await post(jsonRequest(signupBody({ email: "once@example.com" })))).status).toBe(201);
    expect((await post(jsonRequest(signupBody({ email: "ONCE@example.com" })))).status).toBe(409);
    await owe();
    expect(await emails()).toHaveLength(1);
    expect(await worker().sweep()).toBe(1);

    const entry = await getDatabase().waitlistEntry.findFirstOrThrow({ where: { emailNormalized: "once@example.com" } });
    expect(await removeEntry(getDatabase(), { publicId: entry.publicId! }, "visitor")).toBe(true);
    expect((await post(jsonRequest(signupBody({ email: "once@example.com" })))).status).toBe(201);
    expect(await owe()).toBe(1);
    expect(await emails()).toHaveLength(0); // the old row went with its entry; the new entry is owed none
    expect(await worker().sweep()).toBe(0);
    expect(await received()).toHaveLength(1);
    // What is kept of the address is a keyed hash, not the address.
    const kept = await getDatabase().confirmationRecipient.findMany();
    expect(kept).toHaveLength(1);
    expect(JSON.stringify(kept)).not.toContain("once@");
  });

  it("keeps to the hourly cap for the whole site: over it, emails wait and go out as the hour moves on", async () => {
    for (let i = 0; i < 3; i += 1) expect((await post(jsonRequest(signupBody()))).status).toBe(201);
    expect(await worker({ perHour: 2 }).sweep()).toBe(2);
    expect(await worker({ perHour: 2 }).sweep()).toBe(0);
    expect((await emails()).map((row) => row.status)).toEqual(["delivered", "delivered", "pending"]);
    // Counted by the minute: what went out in one minute counts for 60 to 61 minutes.
    clock += 61 * 60 * 1000;
    expect(await worker({ perHour: 2 }).sweep()).toBe(1);
    expect(await received()).toHaveLength(3);
  });

  it("keeps to the cap per recipient domain beside it: one domain waits, the others are mailed", async () => {
    const addresses = ["a@flood.example", "b@FLOOD.example", "c@flood.example", "d@flood.example", "e@other.example"];
    for (const email of addresses) expect((await post(jsonRequest(signupBody({ email })))).status).toBe(201);
    await owe();
    expect((await emails()).map((row) => row.throttleKey)).toEqual([
      "flood.example",
      "flood.example",
      "flood.example",
      "flood.example",
      "other.example",
    ]);
    expect(await worker({ perDomainPerHour: 2 }).sweep()).toBe(3);
    expect(await worker({ perDomainPerHour: 2 }).sweep()).toBe(0);
    expect((await emails()).map((row) => row.status)).toEqual(["delivered", "delivered", "pending", "pending", "delivered"]);
    const to = async () => (await received()).map((mail) => (mail.to as { text: string }).text.toLowerCase()).sort();
    expect(await to()).toEqual(["a@flood.example", "b@flood.example", "e@other.example"]);

    // As the hour moves on (counted by the minute: 60 to 61 minutes), the domain's next two go out.
    clock += 61 * 60 * 1000;
    expect(await worker({ perDomainPerHour: 2 }).sweep()).toBe(2);
    expect(await received()).toHaveLength(5);
  });

  it("goes out over a few kept-open connections (MAIL_MAX_CONNECTIONS), not a connection for each message", async () => {
    let connections = 0;
    const counted = () => void (connections += 1);
    catcher.server.on("connection", counted);
    try {
      for (let i = 0; i < 12; i += 1) expect((await post(jsonRequest(signupBody()))).status).toBe(201);
      const pooled = new DeliveryWorker({
        channels: { email: confirmationEmailChannel({ smtpUrl, from: FROM, secret: testSecret(), siteUrl: SITE_URL, maxConnections: 2 }) },
        owner: "pool-test",
        retryDelaysMs: [1_000],
        leaseMs: 60_000,
        now: () => clock,
        owe: owingNewSignups(testSecret()),
      });
      expect(await pooled.sweep()).toBe(12);
      expect(await received()).toHaveLength(12);
      expect(connections).toBeGreaterThan(0);
      expect(connections).toBeLessThanOrEqual(2);
    } finally {
      catcher.server.off("connection", counted);
    }
  });

  it("retries when the mail server refuses for now, and gives up on a permanent refusal", async () => {
    writeFileSync(path.join(mailDir, "down"), "");
    expect((await post(jsonRequest(signupBody({ email: "later@example.com" })))).status).toBe(201);
    expect(await worker().sweep()).toBe(1);
    expect(await emails()).toEqual([expect.objectContaining({ status: "pending", attempts: 1, lastError: "SMTP 451" })]);
    rmSync(path.join(mailDir, "down"));
    clock += 1_000;
    expect(await worker().sweep()).toBe(1);
    expect((await received()).map((mail) => mail.to)).toEqual([expect.objectContaining({ text: "later@example.com" })]);

    const captured = captureLog();
    expect((await post(jsonRequest(signupBody({ email: "nobody@example.com" })))).status).toBe(201);
    const refusing = new DeliveryWorker({
      channels: { email: async () => ({ delivered: false, retry: false, problem: "SMTP 550" }) },
      owner: "mail-test",
      retryDelaysMs: [1_000],
      leaseMs: 60_000,
      now: () => clock,
      owe: owingNewSignups(testSecret()),
    });
    expect(await refusing.sweep()).toBe(1);
    expect((await emails()).at(-1)).toMatchObject({ status: "failed", lastError: "SMTP 550" });
    captured.stop();
    expect(captured.lines).toContainEqual(
      expect.objectContaining({ fault: "delivery_failed", kind: "email", entry_id: expect.any(Number), attempts: 1, problem: "SMTP 550" }),
    );
    expect(captured.text()).not.toContain("nobody@");
  });

  it("is configured by SMTP_URL, which needs MAIL_FROM (the links are signed with the site's secret, lib/security/secret.ts)", () => {
    expect(() => parseEnv({ SMTP_URL: "smtp://mail.example.com:587", WAITLIST_SECRET: "x".repeat(32) })).toThrow(/MAIL_FROM: must be set/);
    expect(parseEnv({ SMTP_URL: "smtp://mail.example.com:587", MAIL_FROM: FROM })).toMatchObject({
      SMTP_URL: "smtp://mail.example.com:587",
    });
    expect(() => parseEnv({ SMTP_URL: "http://mail.example.com", MAIL_FROM: FROM, WAITLIST_SECRET: "x".repeat(32) })).toThrow(/SMTP_URL/);
    expect(parseEnv({ SMTP_URL: "smtps://u:p@mail.example.com", MAIL_FROM: FROM, WAITLIST_SECRET: "x".repeat(32) })).toMatchObject({
      MAIL_MAX_PER_HOUR: 200,
    });
  });
});
