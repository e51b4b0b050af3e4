/**
 * Finding, exporting, checking and removing entries (lib/cli/entries.ts): list, export, check, duplicates, remove. Against a real migrated SQLite file filled through the
 * site's own store; each command line run in this process, or as the real command
 * (`node scripts/waitlist.mjs`) where only a process shows it (tests/support/cli.ts).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, inject, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { removeEntry } from "@/lib/waitlist/visitor-entry";
import { countEntries, storedEntries } from "../support/database";

import { cliOnTestDatabase, type Run } from "../support/cli";

const { file, workDir, waitlist, waitlistProcess, seed } = cliOnTestDatabase();

describe("npm run waitlist -- list", () => {
  it("shows sign-ups newest first as a table, with type labels and the source", async () => {
    await seed(
      { company_name: "Oldest Plumbing", business_type: "plumbing", daysAgo: 3 },
      {
        company_name: "Newest Heating",
        business_type: "hvac",
        source_page: "/careers",
        utm_source: "google",
        utm_medium: "cpc",
        utm_campaign: "spring",
        daysAgo: 0,
      },
      { company_name: "Middle Electric", business_type: "electrical", daysAgo: 1 },
    );
    const { status, stdout } = await waitlist(["list"]);
    expect(status).toBe(0);
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/^Signed up \(UTC\)\s+Company\s+Contact\s+Email\s+Phone\s+Type\s+Size\s+Confirmed\s+Source$/);
    const companies = lines
      .filter((line) => /Heating|Electric|Plumbing/.test(line))
      .map((line) => /(Newest Heating|Middle Electric|Oldest Plumbing)/.exec(line)![1]);
    expect(companies).toEqual(["Newest Heating", "Middle Electric", "Oldest Plumbing"]);
    expect(stdout).toMatch(/Newest Heating.*HVAC.*\/careers · google \/ cpc \/ spring/);
    expect(stdout).toContain("\n3 sign-ups.\n");
  });

  it("filters by business type, company size, date and text, and says when nothing matches", async () => {
    await seed(
      // "100" in the address: a search for "100%" must not treat % as a wildcard and find it.
      {
        company_name: "Acme Plumbing",
        contact_name: "Rosa Diaz",
        business_type: "plumbing",
        company_size: "1-5",
        email: "rosa.100@acme.example",
        daysAgo: 10,
      },
      { company_name: "Bolt Electric", contact_name: "Sam 100% Kim", business_type: "electrical", company_size: "6-10", daysAgo: 2 },
      {
        company_name: "Cool Air",
        contact_name: "Lee Park",
        business_type: "hvac",
        company_size: "6-10",
        email: "lee@coolair.example",
        daysAgo: 0,
      },
    );
    const companiesIn = (run: Run) => ["Acme Plumbing", "Bolt Electric", "Cool Air"].filter((name) => run.stdout.includes(name));

    expect(companiesIn(await waitlist(["list", "--type", "plumbing"]))).toEqual(["Acme Plumbing"]);
    expect(companiesIn(await waitlist(["list", "--size", "6-10"]))).toEqual(["Bolt Electric", "Cool Air"]);
    const since = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
    expect(companiesIn(await waitlist(["list", "--since", since]))).toEqual(["Bolt Electric", "Cool Air"]);
    expect(companiesIn(await waitlist(["list", "--search", "ROSA"]))).toEqual(["Acme Plumbing"]);
    expect(companiesIn(await waitlist(["list", "--search", "coolair.example"]))).toEqual(["Cool Air"]);
    expect(companiesIn(await waitlist(["list", "--search", "100%"]))).toEqual(["Bolt Electric"]);
    // Nor _ (one character in LIKE): "l_e" is not in "lee@coolair.example".
    expect((await waitlist(["list", "--search", "l_e"])).stdout).toContain("No sign-ups match those filters.");
    expect(companiesIn(await waitlist(["list", "--size", "6-10", "--type", "hvac"]))).toEqual(["Cool Air"]);

    const limited = await waitlist(["list", "--limit", "2"]);
    expect(companiesIn(limited)).toEqual(["Bolt Electric", "Cool Air"]);
    expect(limited.stdout).toContain("Showing the newest 2 of 3 sign-ups; use --limit to see more.");

    expect(await waitlist(["list", "--search", "nobody"])).toMatchObject({ status: 0, stdout: "No sign-ups match those filters.\n" });
  });

  it("never lets what visitors typed reach the terminal as control sequences", async () => {
    await seed({ company_name: "Evil\u001b[2J\u001b[31mCorp", contact_name: "Bidi \u202eevil" });
    const { stdout } = await waitlist(["list"]);
    expect(stdout).not.toMatch(/[\u001b\u202e]/);
    expect(stdout).toContain("Evil\uFFFD[2J\uFFFD[31mCorp");
  });
});

describe("npm run waitlist: confirmed emails and removals", () => {
  it("shows who confirmed their email, filters on it, exports the time, and counts confirmations and removals in stats", async () => {
    await seed(
      { company_name: "Confirmed Co", email: "yes@example.com" },
      { company_name: "Waiting Co", email: "no@example.com" },
      { email: "gone@example.com" },
      { email: "kicked@example.com" },
    );
    const when = new Date("2026-11-20T10:00:00.000Z");
    await getDatabase().waitlistEntry.updateMany({ where: { emailNormalized: "yes@example.com" }, data: { confirmedAt: when } });
    const gone = await getDatabase().waitlistEntry.findFirstOrThrow({ where: { emailNormalized: "gone@example.com" } });
    await removeEntry(getDatabase(), { publicId: gone.publicId! }, "visitor");
    expect((await waitlist(["remove", "--email", "kicked@example.com", "--yes"])).status).toBe(0);

    const list = await waitlist(["list"]);
    expect(list.stdout).toMatch(/Confirmed Co.*2026-11-20/);
    expect(list.stdout).toMatch(/Waiting Co.*\bno\b/);
    expect((await waitlist(["list", "--confirmed", "yes"])).stdout).not.toContain("Waiting Co");
    expect((await waitlist(["list", "--confirmed", "no"])).stdout).not.toContain("Confirmed Co");

    const rows = parse((await waitlist(["export", "--format", "csv"])).stdout, { columns: true, record_delimiter: "\r\n" }) as Record<
      string,
      string
    >[];
    expect(rows.map((row) => [row.company_name, row.confirmed_at])).toEqual([
      ["Confirmed Co", "2026-11-20T10:00:00.000+00:00"],
      ["Waiting Co", ""],
    ]);

    const stats = (await waitlist(["stats"])).stdout;
    expect(stats).toContain("Confirmed their email: 1 (50.0%)");
    expect(stats).toContain("Removed: 1 by the visitor, 1 by an operator (counts only; nothing about them is kept)");
    expect(await getDatabase().waitlistRemoval.findMany({ select: { removedBy: true }, orderBy: { id: "asc" } })).toEqual([
      { removedBy: "visitor" },
      { removedBy: "operator" },
    ]);
  });
});

describe("npm run waitlist -- export", () => {
  const hostile = {
    company_name: `=HYPERLINK("http://evil.example","Click")`,
    contact_name: `+SUM(1,2)`,
    notes: `Line one\nline two, with "quotes", commas\r\nand emoji 👷‍♀️🔧`,
    phone: "+1 (555) 010-2200",
    utm_campaign: "@campaign",
    utm_source: "-source",
    source_page: "/careers",
    email: "o'hara+crm@example.com",
  };
  /** The schema trims what visitors send, so a leading tab or CR only gets in from elsewhere (an old import, SQL by hand). */
  async function seedHostile() {
    await seed(hostile);
    await getDatabase().waitlistEntry.updateMany({
      where: { email: hostile.email },
      data: { utmMedium: "\tmedium", sourcePage: "\r/careers" },
    });
  }

  it("writes RFC 4180 CSV that a CSV parser reads back to the same values, with formulas made inert", async () => {
    await seedHostile();
    await seed({ company_name: "Plain Co", notes: null });
    const { status, stdout, stderr } = await waitlist(["export", "--format", "csv"]);
    expect(status).toBe(0);
    expect(stderr).toContain("Exported 2 sign-ups as CSV.");
    expect(stdout.split("\r\n")[0]).toBe(
      "id,created_at,company_name,contact_name,email,phone,business_type,company_size,notes,source_page,utm_source,utm_medium,utm_campaign,confirmed_at,duplicate_of",
    );
    const rows = parse(stdout, { columns: true, record_delimiter: "\r\n" }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    const [evil, plain] = rows;
    // Values a spreadsheet would run start with an apostrophe; everything else is exactly as stored.
    expect(evil).toMatchObject({
      company_name: `'${hostile.company_name}`,
      contact_name: `'${hostile.contact_name}`,
      phone: `'${hostile.phone}`,
      utm_campaign: `'${hostile.utm_campaign}`,
      utm_source: `'${hostile.utm_source}`,
      utm_medium: "'\tmedium",
      source_page: "'\r/careers",
      notes: hostile.notes,
      email: hostile.email,
    });
    expect(plain).toMatchObject({ company_name: "Plain Co", notes: "" });
    const stored = await storedEntries();
    expect(rows.map((row) => [Number(row.id), row.created_at])).toEqual(stored.map((row) => [row.id, row.created_at]));
  });

  it("keeps every cell one cell, and no formula in one, whether a spreadsheet splits on commas, semicolons or tabs", async () => {
    const sneaky = {
      company_name: `Acme;=cmd|' /C calc'!A0`,
      contact_name: "Pat\t+SUM(A1:A9)",
      notes: "fine, =1+1 and; @here\n-2 on the next line",
    };
    await seed(sneaky);
    const csv = (await waitlist(["export", "--format", "csv"])).stdout;

    // Read as the CSV it is: each value comes back whole, an apostrophe before each formula start.
    const [row] = parse(csv, { columns: true, record_delimiter: "\r\n" }) as Record<string, string>[];
    expect(row).toMatchObject({
      company_name: `Acme;'=cmd|' /C calc'!A0`,
      contact_name: "Pat\t'+SUM(A1:A9)",
      notes: "fine, '=1+1 and; '@here\n'-2 on the next line",
    });

    // Read as a spreadsheet set to another separator would: no cell it makes starts a formula.
    for (const delimiter of [";", "\t", ","]) {
      const records = parse(csv, { delimiter, relax_quotes: true, relax_column_count: true, record_delimiter: "\r\n" }) as string[][];
      const cells = records.flat().flatMap((cell) => cell.split(/\r?\n/));
      expect(
        cells.filter((cell) => /^ *[=+\-@]/.test(cell)),
        `split on ${JSON.stringify(delimiter)}`,
      ).toEqual([]);
    }
  });

  it("on a terminal, shows no escape sequence, C1 control or bidi override a visitor typed, in CSV or JSON; a pipe keeps them", async () => {
    const escapes = {
      company_name: "Acme\u001b[2J\u001b[31mRed",
      contact_name: "Pat \u001b]8;;https://evil.example\u0007click me\u001b]8;;\u0007",
      notes: "C1 \u009b31m and a bidi override \u202eexe.txt",
    };
    await seed(escapes);
    // Through a real pseudo-terminal (util-linux's script), as an operator's shell runs it.
    const inTerminal = (format: string) => {
      const run = spawnSync("script", ["-qec", `${process.execPath} scripts/waitlist.mjs export --format ${format}`, "/dev/null"], {
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: `file:${file}` },
      });
      expect(run.status, run.stdout).toBe(0);
      return run.stdout;
    };
    for (const format of ["csv", "json"]) {
      const shown = inTerminal(format);
      expect(shown, format).toContain("Acme\uFFFD[2J\uFFFD[31mRed");
      expect(shown, format).toContain(
        "Control characters were shown as \uFFFD for the terminal; --out FILE, or a pipe, keeps the exact data.",
      );
      expect(shown, format).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    }
    // Into a pipe (or a file), the data is exact.
    const exact = JSON.parse((await waitlist(["export", "--format", "json"])).stdout) as Record<string, unknown>[];
    expect(exact[0]).toMatchObject(escapes);
  });

  it("writes JSON with every field exactly as stored", async () => {
    await seedHostile();
    const exported = JSON.parse((await waitlist(["export", "--format", "json"])).stdout) as Record<string, unknown>[];
    expect(exported).toHaveLength(1);
    expect(exported[0]).toMatchObject({
      ...hostile,
      utm_medium: "\tmedium",
      source_page: "\r/careers",
      business_type: "hvac",
      company_size: "6-10",
    });
    expect(Object.keys(exported[0]!)).toEqual([
      "id",
      "created_at",
      "company_name",
      "contact_name",
      "email",
      "phone",
      "business_type",
      "company_size",
      "notes",
      "source_page",
      "utm_source",
      "utm_medium",
      "utm_campaign",
      "confirmed_at",
      "duplicate_of",
    ]);
  });

  it("writes to --out FILE, and will not replace a file without --force", async () => {
    await seed({ company_name: "File Co" });
    const out = path.join(workDir, `export-${Date.now()}.csv`);
    const first = await waitlist(["export", "--format", "csv", "--out", out]);
    expect(first).toMatchObject({ status: 0, stdout: "" });
    expect(first.stderr).toContain(`Exported 1 sign-up as CSV to ${out}.`);
    expect(readFileSync(out, "utf8")).toContain("File Co");

    writeFileSync(out, "keep me");
    const refused = await waitlist(["export", "--format", "csv", "--out", out]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("exists. Choose another file, or add --force to replace it.");
    expect(readFileSync(out, "utf8")).toBe("keep me");
    expect((await waitlist(["export", "--format", "csv", "--out", out, "--force"])).status).toBe(0);
    expect(readFileSync(out, "utf8")).toContain("File Co");
  });

  it("creates export files only their owner can read, also when --force replaces a readable one", async () => {
    await seed({ company_name: "Private Co" });
    const out = path.join(workDir, `private-${Date.now()}.json`);
    expect((await waitlist(["export", "--format", "json", "--out", out])).status).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);

    writeFileSync(out, "old", { mode: 0o644 });
    chmodSync(out, 0o644);
    expect((await waitlist(["export", "--format", "json", "--out", out, "--force"])).status).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readFileSync(out, "utf8")).toContain("Private Co");
  });

  it("streams 100,000 rows in a 48 MiB heap (peak memory printed, compared with an empty export)", async () => {
    const rows = 100_000;
    // One sign-up through Prisma, then copies of it made by SQLite itself (100,000 through Prisma
    // took 15 s), each with its own company and address.
    await getDatabase().waitlistEntry.create({
      data: {
        companyName: "Bulk Services 1",
        contactName: "Pat Bulk",
        email: "bulk1@example.com",
        emailNormalized: "bulk1@example.com",
        phone: "+1 555 010 0000",
        businessType: "hvac",
        companySize: "6-10",
        notes: 'Notes, with a comma and "quotes"',
      },
    });
    await getDatabase().$executeRawUnsafe(
      `WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows})
       INSERT INTO waitlist_entries (company_name, contact_name, email, email_normalized, phone, business_type, company_size, notes, created_at)
       SELECT 'Bulk Services ' || n.i, e.contact_name, 'bulk' || n.i || '@example.com', 'bulk' || n.i || '@example.com',
              e.phone, e.business_type, e.company_size, e.notes, e.created_at
       FROM n, waitlist_entries AS e WHERE e.email = 'bulk1@example.com'`,
    );
    expect(await countEntries()).toBe(rows);

    const preload = path.resolve("tests/support/report-peak-memory.cjs");
    const out = path.join(workDir, `bulk-${Date.now()}.csv`);
    // 100,000 entries held at once would need several times this heap; a stream needs a page.
    const big = waitlistProcess(["export", "--format", "csv", "--out", out], { preload, heapMiB: 48 });
    expect(big.status, big.stderr).toBe(0);
    expect(readFileSync(out, "utf8").split("\r\n").length - 2).toBe(rows); // minus the header and the final empty line

    // The baseline's database is a copy of the empty migrated template. (Never read the open
    // database file itself with fs here: closing that descriptor drops this process's SQLite locks.)
    const emptyDb = path.join(workDir, "empty-for-baseline.db");
    copyFileSync(inject("templateDatabase"), emptyDb);
    const baseline = waitlistProcess(["export", "--format", "csv", "--out", `${out}.empty`], {
      preload,
      heapMiB: 48,
      databaseUrl: `file:${emptyDb}`,
    });

    const peakOf = (run: Run) => Number(/peak RSS (\d+(?:\.\d+)?) MiB/.exec(run.stderr)?.[1]);
    const [bigPeak, emptyPeak] = [peakOf(big), peakOf(baseline)];
    expect(bigPeak).toBeGreaterThan(0);
    console.log(
      `export of ${rows.toLocaleString("en-US")} rows (${(readFileSync(out).length / 1048576).toFixed(1)} MiB of CSV): ` +
        `peak RSS ${bigPeak} MiB; the same command exporting 0 rows: ${emptyPeak} MiB; difference ${(bigPeak - emptyPeak).toFixed(1)} MiB`,
    );
  }, 120_000);
});

describe("npm run waitlist -- check, and refusals in stats", () => {
  it("says whether an address would be taken, and if not, why", async () => {
    await seed({ email: "annasmith@gmail.com" });
    expect((await waitlist(["check", "--email", "someone@mailinator.com"])).stdout).toBe(
      `someone@mailinator.com: refused, mailinator.com is on the throwaway-domain list. The visitor reads: "Please use an address you read: we can't reach you at mailinator.com"\n`,
    );
    expect((await waitlist(["check", "--email", "A.nna.Smith+x@googlemail.com"])).stdout).toMatch(
      /^A\.nna\.Smith\+x@googlemail\.com: refused, already on the list as #\d+ annasmith@gmail\.com \(the same mailbox: annasmith@gmail\.com\)\.\n$/,
    );
    expect((await waitlist(["check", "--email", "new.person@example.com"])).stdout).toBe(
      "new.person@example.com: would be taken (its mailbox: new.person@example.com).\n",
    );
    expect((await waitlist(["check", "--email", "not-an-address"])).stdout).toContain("not-an-address: refused, not a valid address");
    expect(await waitlist(["check"])).toMatchObject({ status: 2, stderr: expect.stringContaining("check needs --email ADDRESS.") });
  });

  it("counts the last 30 days' refusals by reason, with the domains refused most", async () => {
    await seed({ email: "kept@example.com" });
    const today = new Date().toISOString().slice(0, 10);
    await getDatabase().emailRefusal.createMany({
      data: [
        { day: today, reason: "disposable", domain: "mailinator.com", count: 7 },
        { day: today, reason: "disposable", domain: "yopmail.com", count: 2 },
        { day: today, reason: "already_registered", domain: "gmail.com", count: 3 },
        { day: "2020-01-01", reason: "denied", domain: "old.example", count: 50 },
      ],
    });
    const out = (await waitlist(["stats"])).stdout;
    expect(out).toMatch(/Refused addresses, last 30 days\s+Count\n[─ ]+\nthrowaway domain\s+9\nalready on the list\s+3\nIn all\s+12\n/);
    expect(out).toMatch(
      /Domains refused most\s+Why\s+Count\n[─ ]+\nmailinator\.com\s+throwaway domain\s+7\ngmail\.com\s+already on the list\s+3\nyopmail\.com\s+throwaway domain\s+2\n/,
    );
    expect(out).not.toContain("old.example");
  });
});

describe("npm run waitlist -- duplicates", () => {
  /** A row kept from before the canonical mailbox: same key as an entry, marked as its duplicate (as the migration does). */
  async function keptDuplicateOf(email: string, typed: string) {
    const entry = await getDatabase().waitlistEntry.findFirstOrThrow({ where: { email } });
    const { id: _id, publicId: _publicId, challengeId: _challengeId, ...copy } = entry;
    return getDatabase().waitlistEntry.create({ data: { ...copy, email: typed, duplicateOf: entry.id, createdAt: new Date() } });
  }

  it("says so when there are none", async () => {
    await seed({ email: "single@gmail.com" });
    expect(await waitlist(["duplicates"])).toMatchObject({ status: 0, stdout: "No duplicates: every mailbox is on the list once.\n" });
    expect((await waitlist(["stats"])).stdout).not.toContain("Duplicates");
  });

  it("lists kept duplicates under their entry, counts them in stats and exports, and removes one by --id", async () => {
    await seed({ email: "annasmith@gmail.com", company_name: "Smith HVAC" }, { email: "other@example.com" });
    const duplicate = await keptDuplicateOf("annasmith@gmail.com", "Anna.Smith+launch@gmail.com");

    const listed = await waitlist(["duplicates"]);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(
      /^#\d+ {2}\d{4}-\d\d-\d\d {2}annasmith@gmail\.com {2}\(Dana Ortiz, Smith HVAC\)\n {4}duplicate #\d+ {2}\d{4}-\d\d-\d\d {2}Anna\.Smith\+launch@gmail\.com/,
    );
    expect(listed.stdout).toContain("1 duplicate of 1 entry.");
    expect((await waitlist(["stats"])).stdout).toContain("Duplicates kept from before one mailbox meant one entry: 1 (see duplicates)");
    const exported = JSON.parse((await waitlist(["export", "--format", "json"])).stdout) as {
      email: string;
      duplicate_of: number | null;
    }[];
    expect(exported.find((row) => row.email === "Anna.Smith+launch@gmail.com")?.duplicate_of).toBe(duplicate.duplicateOf);

    // --email names the mailbox's entry, not the duplicate; --id names the row.
    expect((await waitlist(["remove", "--email", "a.nna.smith@googlemail.com"], { input: "no\n" })).stdout).toContain(
      "<annasmith@gmail.com>",
    );
    const removed = await waitlist(["remove", "--id", String(duplicate.id), "--yes"]);
    expect(removed.status, removed.stderr).toBe(0);
    expect(removed.stdout).toContain("Removed Dana Ortiz <Anna.Smith+launch@gmail.com>");
    expect((await storedEntries()).map((row) => row.email).sort()).toEqual(["annasmith@gmail.com", "other@example.com"]);
    expect(await waitlist(["remove", "--id", "99999", "--yes"])).toMatchObject({
      status: 1,
      stderr: "No sign-up with the id 99999. Nothing removed.\n",
    });
  });
});

describe("npm run waitlist -- remove", () => {
  it("removes a sign-up with --yes, matching the email in any case and spacing", async () => {
    await seed({ email: "Leaving@Example.com" }, { email: "staying@example.com" });
    const run = await waitlist(["remove", "--email", "  leaving@EXAMPLE.com ", "--yes"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Removed Dana Ortiz <Leaving@Example.com> of Northwind Heating & Air, signed up \d{4}-\d\d-\d\d\.\n$/);
    expect((await storedEntries()).map((row) => row.email)).toEqual(["staying@example.com"]);
  });

  it("asks first, and removes only when the answer is yes", async () => {
    await seed({ email: "ask@example.com" });
    const declined = await waitlist(["remove", "--email", "ask@example.com"], { input: "no\n" });
    expect(declined.status, declined.stderr).toBe(1);
    expect(declined.stdout, declined.stderr).toContain("ask@example.com");
    expect(declined.stdout).toContain("Remove this sign-up for good? Type yes to confirm:");
    expect(declined.stdout).toContain("Not removed.");
    const noAnswer = await waitlist(["remove", "--email", "ask@example.com"], { input: "" });
    expect(noAnswer.status).toBe(1);
    expect(await countEntries()).toBe(1);

    const confirmed = await waitlist(["remove", "--email", "ask@example.com"], { input: "yes\n" });
    expect(confirmed.status).toBe(0);
    expect(await countEntries()).toBe(0);
  });

  it("says so when nobody has that email, and changes nothing", async () => {
    await seed({ email: "someone@example.com" });
    const run = await waitlist(["remove", "--email", "nobody@example.com", "--yes"]);
    expect(run).toMatchObject({ status: 1, stderr: "No sign-up with the email nobody@example.com. Nothing removed.\n" });
    expect(await countEntries()).toBe(1);
  });
});
