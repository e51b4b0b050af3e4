/**
 * DKIM (issue 39): every message the site sends is signed with the configured key, and a
 * receiver that looks the key's record up (mailauth, as a mailbox provider would) finds the
 * signature valid; without a key the mail still goes, unsigned, and the start says so. The
 * operator tool makes a key (a file only its user reads, never overwritten) and prints the record.
 */
import { spawnSync } from "node:child_process";
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { dkimVerify } from "mailauth/lib/dkim/verify";
import { afterAll, describe, expect, it } from "vitest";
import { sendSignInLink } from "@/lib/auth/emails";
import { getDatabase } from "@/lib/db";
import { parseEnv } from "@/lib/env";
import { mailAtStart } from "@/lib/mail/at-start";
import { DkimKeyProblem, dkimFromEnv, dkimKeyFileWarning, dkimRecord, newDkimKey, type DkimSettings } from "@/lib/mail/dkim";
import { confirmationEmailChannel } from "@/lib/waitlist/confirmation-email";
import { deliveriesAtStart } from "@/lib/waitlist/deliveries";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { setUpTestDatabase } from "../support/database";
import { testSecret } from "../support/challenge";
import { mailCatcherForTests } from "../support/mail-catcher";
import { validSignup } from "../support/requests";

const { url: databaseUrl } = setUpTestDatabase();

const DOMAIN = "fieldcrew.example";
const FROM = `FieldCrew <hello@${DOMAIN}>`;
const work = mkdtempSync(path.join(tmpdir(), "waitlist-dkim-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const mail = mailCatcherForTests();
const key = newDkimKey();
const dkim: DkimSettings = { domainName: DOMAIN, keySelector: "fc2026", privateKey: key };

/** The one message the catcher holds. */
function received(): Buffer {
  const messages = mail.received();
  expect(messages).toHaveLength(1);
  return messages[0]!;
}

/** What a receiver concludes, looking the key up where the record says: `records` is its DNS. */
async function verified(message: Buffer, records: Record<string, string>) {
  const resolver = async (name: string) => {
    if (!(name in records)) throw Object.assign(new Error(`no record at ${name}`), { code: "ENOTFOUND" });
    return [[records[name]!]];
  };
  const { results } = await dkimVerify(message, { resolver: resolver as never });
  return results.map((result) => ({ status: result.status.result, domain: result.signingDomain, selector: result.selector }));
}

async function sendConfirmation(signing: DkimSettings | null): Promise<void> {
  const stored = await addToWaitlist(waitlistSignupSchema.parse(validSignup({ email: `dkim.${Date.now()}@example.com` })));
  if (stored.outcome !== "created") throw new Error(stored.outcome);
  const entry = await getDatabase().waitlistEntry.findUniqueOrThrow({ where: { id: stored.entry.id } });
  const send = confirmationEmailChannel({
    smtpUrl: mail.smtpUrl(),
    from: FROM,
    secret: testSecret(),
    siteUrl: "https://fieldcrew.example",
    dkim: signing,
  });
  const delivery = { id: crypto.randomUUID(), kind: "email" as const, entryId: entry.id, attempt: 1, event: "created", payload: null };
  expect(await send(delivery, entry, new AbortController().signal, Date.now() + 10_000)).toEqual({ delivered: true });
}

describe("DKIM signing", () => {
  it("signs the confirmation email; a receiver with the published record finds the signature valid", async () => {
    await sendConfirmation(dkim);
    const message = received();
    expect(message.toString()).toMatch(/^DKIM-Signature: .*d=fieldcrew\.example/m);
    expect(await verified(message, { [`fc2026._domainkey.${DOMAIN}`]: dkimRecord(key) })).toEqual([
      { status: "pass", domain: DOMAIN, selector: "fc2026" },
    ]);
    // Another key's record (a key that was replaced, say) does not vouch for it.
    expect((await verified(message, { [`fc2026._domainkey.${DOMAIN}`]: dkimRecord(newDkimKey()) }))[0]!.status).toBe("fail");
  });

  it("signs the operators' emails too", async () => {
    await sendSignInLink(
      { smtpUrl: mail.smtpUrl(), from: FROM, dkim },
      "ana@fieldcrew.example",
      "https://fieldcrew.example/operator/sign-in/email?token=t",
      15,
    );
    expect(await verified(received(), { [`fc2026._domainkey.${DOMAIN}`]: dkimRecord(key) })).toEqual([
      { status: "pass", domain: DOMAIN, selector: "fc2026" },
    ]);
  });

  it("still sends without a key, unsigned, and the start says so", async () => {
    await sendConfirmation(null);
    expect(received().toString()).not.toMatch(/^DKIM-Signature:/m);
    const env = parseEnv({ DATABASE_URL: databaseUrl, SMTP_URL: mail.smtpUrl(), MAIL_FROM: FROM });
    expect(deliveriesAtStart(env).join("\n")).toMatch(/Mail signing: off, .*npm run waitlist -- mail dkim-key/);
  });
});

describe("the DKIM settings", () => {
  const keyFile = path.join(work, "dkim.pem");
  writeFileSync(keyFile, key, { mode: 0o600 });

  it("are read from a key file or the key itself, for MAIL_FROM's domain unless told another", () => {
    expect(dkimFromEnv({ MAIL_FROM: FROM, MAIL_DKIM_SELECTOR: "fc2026", MAIL_DKIM_PRIVATE_KEY_FILE: keyFile })).toEqual(dkim);
    const oneLine = key.trim().replace(/\n/g, "\\n");
    expect(
      dkimFromEnv({
        MAIL_FROM: FROM,
        MAIL_DKIM_SELECTOR: "fc2026",
        MAIL_DKIM_PRIVATE_KEY: oneLine,
        MAIL_DKIM_DOMAIN: "mail.fieldcrew.example",
      }),
    ).toMatchObject({
      domainName: "mail.fieldcrew.example",
    });
    expect(dkimFromEnv({ MAIL_FROM: FROM })).toBeNull();
    const env = parseEnv({
      DATABASE_URL: databaseUrl,
      SMTP_URL: mail.smtpUrl(),
      MAIL_FROM: FROM,
      MAIL_DKIM_SELECTOR: "fc2026",
      MAIL_DKIM_PRIVATE_KEY_FILE: keyFile,
    });
    expect(deliveriesAtStart(env)).toContain(`Mail signing: DKIM for ${DOMAIN}, selector fc2026.`);
  });

  it("that cannot work are refused with what to do, so the site does not start sending mail that fails its checks", () => {
    const refused = (env: Parameters<typeof dkimFromEnv>[0]) => () => dkimFromEnv(env);
    expect(refused({ MAIL_FROM: FROM, MAIL_DKIM_SELECTOR: "fc2026" })).toThrow(DkimKeyProblem);
    expect(refused({ MAIL_FROM: FROM, MAIL_DKIM_PRIVATE_KEY_FILE: keyFile })).toThrow(/without MAIL_DKIM_SELECTOR/);
    expect(refused({ MAIL_FROM: FROM, MAIL_DKIM_SELECTOR: "fc2026", MAIL_DKIM_PRIVATE_KEY_FILE: path.join(work, "missing.pem") })).toThrow(
      /Cannot read/,
    );
    expect(refused({ MAIL_FROM: FROM, MAIL_DKIM_SELECTOR: "fc2026", MAIL_DKIM_PRIVATE_KEY: "not a key" })).toThrow(/not a private key/);
  });

  it("that are not RSA of at least 2048 bits are refused: an EC key signs what rsa-sha256 receivers reject, a short one is weak", () => {
    const pem = (key: KeyObject) => key.export({ type: "pkcs8", format: "pem" }).toString();
    const keys = {
      ec: pem(generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey),
      ed25519: pem(generateKeyPairSync("ed25519").privateKey),
      rsa1024: pem(generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey),
      rsa512: pem(generateKeyPairSync("rsa", { modulusLength: 512 }).privateKey),
    };
    const withKey = (key: string) => () => dkimFromEnv({ MAIL_FROM: FROM, MAIL_DKIM_SELECTOR: "fc2026", MAIL_DKIM_PRIVATE_KEY: key });
    expect(withKey(keys.ec)).toThrow("The DKIM key is EC, not RSA: the site signs rsa-sha256.");
    expect(withKey(keys.ed25519)).toThrow(/is ED25519, not RSA/);
    expect(withKey(keys.rsa1024)).toThrow("The DKIM key is RSA of 1024 bits; at least 2048 are needed to be trusted.");
    expect(withKey(keys.rsa512)).toThrow(/RSA of 512 bits/);
    expect(withKey(key)()).toMatchObject({ keySelector: "fc2026" });
  });

  it("in a file others can read stop nothing but are warned about at start, with the fix", async () => {
    const open = path.join(work, "open.pem");
    writeFileSync(open, key, { mode: 0o644 });
    chmodSync(open, 0o644);
    const env = parseEnv({
      ...process.env,
      SMTP_URL: undefined,
      MAIL_FROM: FROM,
      MAIL_DKIM_SELECTOR: "fc2026",
      MAIL_DKIM_PRIVATE_KEY_FILE: open,
    });
    const { refusal, warnings } = await mailAtStart(env);
    expect(refusal).toBeNull();
    expect(warnings).toEqual([expect.stringContaining(`can be read by other users (mode 0644)`)]);
    expect(warnings[0]).toContain(`chmod 600 ${open}`);
    expect(dkimKeyFileWarning({ MAIL_DKIM_PRIVATE_KEY_FILE: keyFile })).toBeNull();
    // A key the site would refuse stops the start with its sentence.
    const short = await mailAtStart(
      parseEnv({
        ...process.env,
        MAIL_FROM: FROM,
        MAIL_DKIM_SELECTOR: "fc2026",
        MAIL_DKIM_PRIVATE_KEY: generateKeyPairSync("rsa", { modulusLength: 1024 })
          .privateKey.export({ type: "pkcs8", format: "pem" })
          .toString(),
      }),
    );
    expect(short.refusal).toMatch(/RSA of 1024 bits/);
  });
});

describe("npm run waitlist -- mail dkim-key", () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, ["scripts/waitlist.mjs", "mail", "dkim-key", ...args], {
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: databaseUrl, MAIL_FROM: FROM },
    });

  it("writes a key only its user can read, and prints the record that publishes it and the settings", () => {
    const out = path.join(work, "made.pem");
    const made = run(["--selector", "fc2026", "--out", out]);
    expect(made.status, made.stderr).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const record = dkimRecord(readFileSync(out, "utf8"));
    expect(made.stdout).toContain(`name:  fc2026._domainkey.${DOMAIN}`);
    // The value as DNS takes it: quoted strings of at most 255 characters, which join to the record.
    const value = /value: (.*)/.exec(made.stdout)![1]!;
    expect(
      value
        .match(/"([^"]*)"/g)!
        .map((part) => part.slice(1, -1))
        .join(""),
    ).toBe(record);
    expect(made.stdout).toContain("MAIL_DKIM_SELECTOR=fc2026");
    expect(made.stdout).toContain(`MAIL_DKIM_PRIVATE_KEY_FILE=${out}`);

    // Never over a key that may be published already.
    const again = run(["--selector", "fc2026", "--out", out]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/it exists/);
    expect(dkimRecord(readFileSync(out, "utf8"))).toBe(record);
  });

  it("needs a selector that can be a DNS label", () => {
    expect(run([]).status).toBe(2);
    expect(run(["--selector", "two words"]).stderr).toMatch(/one DNS label/);
  });
});
