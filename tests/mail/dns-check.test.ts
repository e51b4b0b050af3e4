/**
 * `npm run waitlist -- mail check` (issue 39): the sending domain's MX, SPF, DKIM (matched
 * against the configured key) and DMARC records, looked up in a DNS server this test starts (no
 * network needed); what is missing or wrong is named with the exact record to add, exit 1.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import dns2 from "dns2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dkimRecord, newDkimKey } from "@/lib/mail/dkim";
import { setUpTestDatabase } from "../support/database";

const { url: databaseUrl } = setUpTestDatabase();

const work = mkdtempSync(path.join(tmpdir(), "waitlist-mail-check-"));
const key = newDkimKey();
const keyFile = path.join(work, "dkim.pem");
writeFileSync(keyFile, key, { mode: 0o600 });

type Zone = Record<string, { txt?: string[][]; mx?: { exchange: string; priority: number }[] }>;
/** What the test's DNS server answers, by name: set per test. */
let zone: Zone = {};

const { Packet } = dns2;
const server = dns2.createServer({
  udp: true,
  handle(request, send) {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const records = zone[question!.name.toLowerCase()];
    if (!records) response.header.rcode = 3; // NXDOMAIN
    for (const strings of question!.type === Packet.TYPE.TXT ? (records?.txt ?? []) : [])
      response.answers.push({ name: question!.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data: strings } as never);
    for (const mx of question!.type === Packet.TYPE.MX ? (records?.mx ?? []) : [])
      response.answers.push({ name: question!.name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 60, ...mx } as never);
    send(response);
  },
});
let dnsServer = "";

beforeAll(async () => {
  await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  dnsServer = `127.0.0.1:${server.addresses().udp!.port}`;
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

/** The command, run without blocking this process (its DNS server answers from here). */
function check(env: Record<string, string> = {}, dns = dnsServer): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["scripts/waitlist.mjs", "mail", "check", "--dns", dns],
      {
        encoding: "utf8",
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          MAIL_FROM: "FieldCrew <hello@fieldcrew.example>",
          SMTP_URL: "smtp://user:pass@smtp.mailhost.example:587",
          MAIL_DKIM_SELECTOR: "fc2026",
          MAIL_DKIM_PRIVATE_KEY_FILE: keyFile,
          ...env,
        },
      },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The record as long TXT records are published: strings of at most 255 characters. */
const split = (record: string) => record.match(/.{1,255}/g)!;

describe("mail check", () => {
  it("says the domain is set up when all four records are there and the DKIM record is the configured key's", async () => {
    zone = {
      "fieldcrew.example": {
        mx: [{ exchange: "mx1.mailhost.example", priority: 10 }],
        txt: [["v=spf1 include:mailhost.example ~all"], ["google-site-verification=x"]],
      },
      "fc2026._domainkey.fieldcrew.example": { txt: [split(dkimRecord(key))] },
      "_dmarc.fieldcrew.example": { txt: [["v=DMARC1; p=quarantine"]] },
    };
    const run = await check();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("ok      MX    mx1.mailhost.example (10)");
    expect(run.stdout).toContain("ok      SPF   v=spf1 include:mailhost.example ~all");
    expect(run.stdout).toContain("ok      DKIM  fc2026._domainkey.fieldcrew.example matches the configured key");
    expect(run.stdout).toContain("ok      DMARC v=DMARC1; p=quarantine");
    expect(run.stdout).toContain("fieldcrew.example is set up for mail that reaches the inbox.");
  });

  it("names what is missing with the exact record to add, and exits 1", async () => {
    zone = { "fieldcrew.example": { txt: [["google-site-verification=x"]] } };
    const run = await check();
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("MISSING MX    missing: fieldcrew.example receives no mail");
    expect(run.stdout).toContain('MISSING SPF   missing. Add: fieldcrew.example TXT "v=spf1 mx a:smtp.mailhost.example ~all"');
    expect(run.stdout).toContain(`MISSING DKIM  missing. Add: fc2026._domainkey.fieldcrew.example TXT "${dkimRecord(key)}"`);
    expect(run.stdout).toContain(
      'MISSING DMARC missing. Add: _dmarc.fieldcrew.example TXT "v=DMARC1; p=none; rua=mailto:dmarc@fieldcrew.example"',
    );
    expect(run.stdout).toContain("4 of 4 to fix for fieldcrew.example.");
  });

  it("finds a published DKIM record that is another key's, two SPF records, and no key configured", async () => {
    zone = {
      "fieldcrew.example": {
        mx: [{ exchange: "mx1.mailhost.example", priority: 10 }],
        txt: [["v=spf1 mx ~all"], ["v=spf1 include:other.example ~all"]],
      },
      "fc2026._domainkey.fieldcrew.example": { txt: [split(dkimRecord(newDkimKey()))] },
      "_dmarc.fieldcrew.example": { txt: [["v=DMARC1; p=none"]] },
    };
    const run = await check();
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("MISSING SPF   2 SPF records");
    expect(run.stdout).toContain(
      `MISSING DKIM  the record at fc2026._domainkey.fieldcrew.example is not the configured key's, so signatures fail. Replace it with: "${dkimRecord(key)}"`,
    );
    expect(run.stdout).toContain("2 of 4 to fix");

    const unsigned = await check({ MAIL_DKIM_SELECTOR: "", MAIL_DKIM_PRIVATE_KEY_FILE: "" });
    expect(unsigned.stdout).toContain(
      "MISSING DKIM  no key configured, so mail goes unsigned. Make one: npm run waitlist -- mail dkim-key --selector NAME",
    );
  });

  it("prints what DNS answered without its control characters: no faked line, no escape sequence reaches the terminal", async () => {
    const forged =
      "v=spf1 mx ~all\r\nok      DKIM  fc2026._domainkey.fieldcrew.example matches the configured key\x1b[2K\x1b]8;;https://evil.example\x07x";
    zone = {
      "fieldcrew.example": { mx: [{ exchange: "mx1.mailhost.example", priority: 10 }], txt: [[forged]] },
      "_dmarc.fieldcrew.example": { txt: [["v=DMARC1; p=none\u001b[1A"]] },
    };
    const run = await check();
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(run.stdout.split("\n").filter((line) => line.startsWith("ok      DKIM"))).toEqual([]);
    expect(run.stdout).toContain("MISSING DKIM  missing.");
    expect(run.status).toBe(1);
  });

  it("takes --dns as HOST[:PORT] with a host name, and says so in one line when the name is unknown", async () => {
    zone = { "fieldcrew.example": { mx: [{ exchange: "mx1.mailhost.example", priority: 10 }] } };
    const byName = await check({}, `localhost:${dnsServer.split(":")[1]}`);
    expect(byName.stderr).not.toMatch(/Invalid IP address/);
    expect(byName.stdout).toContain("ok      MX    mx1.mailhost.example (10)");
    const unknown = await check({}, "no-such-dns-server.invalid:53");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("The DNS server no-such-dns-server.invalid could not be found.");
  });
});
