/**
 * One mailbox, one entry: duplicates are decided on the address's canonical
 * form (normalizeEmail), and the migration that brought the rule in recomputed
 * the key of rows already stored, keeping every row and marking the ones that
 * now share a mailbox as duplicates of the oldest.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/lib/db";
import { databaseSettings, parseEnv } from "@/lib/env";
import { findByEmail, listDuplicates } from "@/lib/console/queries";
import { normalizeEmail, waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { removeEntry } from "@/lib/waitlist/visitor-entry";
import { validSignup } from "../fixtures/signup";
import { executeScript, setUpTestDatabase, storedEntries } from "../support/database";
import { answerOf, jsonRequest, signupBody } from "../support/requests";

setUpTestDatabase();

describe("the canonical mailbox", () => {
  it.each([
    ["Anna.Smith+launch@gmail.com", "annasmith@gmail.com"],
    ["annasmith@gmail.com", "annasmith@gmail.com"],
    ["a.nna.smith@googlemail.com", "annasmith@gmail.com"],
    ["  Jo.Doe+news@Example.COM ", "jo.doe@example.com"],
    ["jo.doe@example.com", "jo.doe@example.com"],
    ["+only-a-tag@example.com", "+only-a-tag@example.com"],
    ["a+b+c@example.com", "a@example.com"],
    ["ÉLODIE@exemple.fr", "élodie@exemple.fr"],
  ])("reads %j as %j", (typed, canonical) => {
    expect(normalizeEmail(typed)).toBe(canonical);
  });

  it("keeps one entry for one mailbox, stores the address as typed, and answers the other spellings as already registered", async () => {
    const route = await import("@/app/api/waitlist/route");
    expect((await route.POST(jsonRequest(signupBody({ email: "anna.smith+launch@gmail.com" })))).status).toBe(201);
    for (const email of ["annasmith@gmail.com", "a.nna.smith@googlemail.com", "ANNA.SMITH@gmail.com"]) {
      const answer = await answerOf(await route.POST(jsonRequest(signupBody({ email }))));
      expect(answer.status).toBe(409);
      expect(answer.body.error).toContain("already registered");
    }
    expect((await storedEntries()).map((row) => [row.email, row.email_normalized])).toEqual([
      ["anna.smith+launch@gmail.com", "annasmith@gmail.com"],
    ]);
  });
});

const MIGRATIONS = path.resolve("prisma/migrations");
const CANONICAL_MIGRATION = "20261123120000_canonical_mailbox";

describe(`the migration ${CANONICAL_MIGRATION}`, () => {
  it("recomputes every key by the same rule, keeps every row, and marks the later rows of a mailbox as duplicates of the oldest", async () => {
    const file = path.join(tmpdir(), `canonical-${process.pid}-${Date.now()}.db`);
    const all = readdirSync(MIGRATIONS)
      .filter((name) => /^\d{14}_/.test(name))
      .sort();
    const sql = (name: string) => readFileSync(path.join(MIGRATIONS, name, "migration.sql"), "utf8");
    for (const name of all.filter((name) => name < CANONICAL_MIGRATION)) await executeScript(file, sql(name));

    // Rows as the site stored them before: the key was the address trimmed and lower-cased.
    const before = [
      ["Anna.Smith+launch@gmail.com", "2026-11-20T10:00:00.000+00:00"],
      ["annasmith@gmail.com", "2026-11-19T09:00:00.000+00:00"],
      ["a.nna.smith@googlemail.com", "2026-11-21T08:00:00.000+00:00"],
      ["bob+crm@example.com", "2026-11-18T12:00:00.000+00:00"],
      ["Bob@Example.com", "2026-11-22T12:00:00.000+00:00"],
      ["carol.king@example.com", "2026-11-18T12:00:00.000+00:00"],
      ["+only-a-tag@example.com", "2026-11-18T12:00:00.000+00:00"],
      ["ÉLODIE+x@exemple.fr", "2026-11-18T13:00:00.000+00:00"],
    ];
    const values = before.map(([email, at], i) => {
      const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;
      return `(${quoted(`Company ${i}`)}, 'Pat', ${quoted(email!)}, ${quoted(email!.trim().toLowerCase())}, '+1 555 010 0000', 'hvac', '6-10', ${quoted(at!)}, ${quoted(`public-${i}`)})`;
    });
    await executeScript(
      file,
      `INSERT INTO waitlist_entries (company_name, contact_name, email, email_normalized, phone, business_type, company_size, created_at, public_id) VALUES ${values.join(", ")};`,
    );

    for (const name of all.filter((name) => name >= CANONICAL_MIGRATION)) await executeScript(file, sql(name));

    const database = createDatabase(databaseSettings({ ...parseEnv(), DATABASE_URL: `file:${file}` }));
    try {
      const rows = await database.waitlistEntry.findMany({ orderBy: { id: "asc" } });
      expect(rows).toHaveLength(before.length);
      // The SQL rule and normalizeEmail() agree on every row.
      expect(rows.map((row) => row.emailNormalized)).toEqual(rows.map((row) => normalizeEmail(row.email)));
      const idOf = (email: string) => rows.find((row) => row.email === email)!.id;
      expect(Object.fromEntries(rows.map((row) => [row.email, row.duplicateOf]))).toEqual({
        "Anna.Smith+launch@gmail.com": idOf("annasmith@gmail.com"),
        "annasmith@gmail.com": null,
        "a.nna.smith@googlemail.com": idOf("annasmith@gmail.com"),
        "bob+crm@example.com": null,
        "Bob@Example.com": idOf("bob+crm@example.com"),
        "carol.king@example.com": null,
        "+only-a-tag@example.com": null,
        "ÉLODIE+x@exemple.fr": null,
      });
      const groups = await listDuplicates(database);
      expect(groups.map((group) => [group.entry.email, group.duplicates.map((row) => row.email)])).toEqual([
        ["bob+crm@example.com", ["Bob@Example.com"]],
        ["annasmith@gmail.com", ["Anna.Smith+launch@gmail.com", "a.nna.smith@googlemail.com"]],
      ]);

      // After it, the store decides on the canonical key: another spelling is a duplicate.
      const again = await addToWaitlist(waitlistSignupSchema.parse(validSignup({ email: "annaSmith+again@googlemail.com" })), { database });
      expect(again.outcome).toBe("duplicate");
      expect((await findByEmail(database, "ANNA.smith@gmail.com"))?.email).toBe("annasmith@gmail.com");

      // Removing the entry hands its place to its oldest duplicate, which the other now points at.
      expect(await removeEntry(database, { id: idOf("annasmith@gmail.com") }, "operator")).toBe(true);
      const after = await database.waitlistEntry.findMany({ where: { emailNormalized: "annasmith@gmail.com" }, orderBy: { id: "asc" } });
      expect(after.map((row) => [row.email, row.duplicateOf])).toEqual([
        ["Anna.Smith+launch@gmail.com", null],
        ["a.nna.smith@googlemail.com", idOf("Anna.Smith+launch@gmail.com")],
      ]);
      expect((await addToWaitlist(waitlistSignupSchema.parse(validSignup({ email: "anna.smith@gmail.com" })), { database })).outcome).toBe(
        "duplicate",
      );
    } finally {
      await database.$disconnect();
      for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${file}${suffix}`, { force: true });
    }
  });
});
