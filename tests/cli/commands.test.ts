/**
 * The command line itself: its usage, an empty database, and bad arguments (lib/cli/commands.ts). Against a real migrated SQLite file filled through the
 * site's own store; each command line run in this process, or as the real command
 * (`node scripts/waitlist.mjs`) where only a process shows it (tests/support/cli.ts).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { countEntries } from "../support/database";

import { cliOnTestDatabase, USAGE_LINE } from "../support/cli";

const { workDir, waitlist, waitlistProcess, seed } = cliOnTestDatabase();

describe("npm run waitlist: an empty database", () => {
  it("says so in a friendly line for list and stats, and exports only the header", async () => {
    expect(await waitlist(["list"])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^No sign-ups yet\./) });
    expect(await waitlist(["stats"])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^No sign-ups yet\./) });
    const csv = await waitlist(["export", "--format", "csv"]);
    expect(csv.status).toBe(0);
    expect(csv.stdout).toBe(
      "id,created_at,company_name,contact_name,email,phone,business_type,company_size,notes,source_page,utm_source,utm_medium,utm_campaign,confirmed_at,duplicate_of\r\n",
    );
    expect(csv.stderr).toMatch(/No sign-ups yet; wrote an empty CSV export/);
    expect(JSON.parse((await waitlist(["export", "--format", "json"])).stdout)).toEqual([]);
  });
});

describe("npm run waitlist: bad arguments", () => {
  it.each([
    [[], "Usage"],
    [["launch"], 'Unknown command "launch".'],
    [["list", "--colour", "red"], "Unknown option '--colour'"],
    [["list", "--type", "roofing"], 'Unknown business type "roofing". Use one of: hvac, plumbing'],
    [["list", "--size", "7"], 'Unknown company size "7".'],
    [["list", "--since", "last tuesday"], '"last tuesday" is not a date. Use YYYY-MM-DD'],
    [["list", "--limit", "0"], '--limit must be a positive whole number or "all", not "0".'],
    [["list", "--confirmed", "maybe"], '--confirmed must be yes or no, not "maybe".'],
    [["stats", "extra"], "Unexpected argument 'extra'"],
    [["export"], "export needs --format csv or --format json."],
    [["export", "--format", "xlsx"], "export needs --format csv or --format json."],
    [["remove"], "remove needs --email ADDRESS or --id N."],
    [["remove", "--email", "a@example.com", "--id", "3"], "remove needs --email ADDRESS or --id N."],
    [["remove", "--id", "x"], '--id must be an entry\'s id (a positive whole number), not "x".'],
    [["deliveries", "--status", "lost"], '--status must be pending, failed or all, not "lost".'],
    [["redeliver"], "redeliver needs --id ID or --all-failed."],
    [["redeliver", "--id", "x", "--all-failed"], "redeliver needs --id ID or --all-failed."],
  ])("%j prints a short reason and the usage, exit 2", async (args, reason) => {
    await seed({ company_name: "Untouched" });
    const run = await waitlist(args as string[]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(reason);
    expect(run.stderr).toContain(USAGE_LINE);
    expect(await countEntries()).toBe(1);
  });

  it("prints the usage on request, exit 0", async () => {
    expect(await waitlist(["--help"])).toMatchObject({ status: 0, stdout: expect.stringContaining(USAGE_LINE) });
  });

  it("as its own process, exits 0 for the usage asked for, 2 for a bad command and 1 without a database", () => {
    expect(waitlistProcess(["--help"])).toMatchObject({ status: 0, stdout: expect.stringContaining(USAGE_LINE) });
    expect(waitlistProcess(["launch"])).toMatchObject({ status: 2, stderr: expect.stringContaining('Unknown command "launch".') });
    const missing = waitlistProcess(["list"], { databaseUrl: `file:${path.join(workDir, "no-such-dir", "waitlist.db")}` });
    expect(missing).toMatchObject({ status: 1, stderr: expect.stringContaining("There is no waitlist database at") });
  });

  it("explains a missing database instead of creating one", async () => {
    const missing = path.join(workDir, "no-such-dir", "waitlist.db");
    const run = await waitlist(["list"], { databaseUrl: `file:${missing}` });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("There is no waitlist database at");
    expect(run.stderr).toContain("npm run db:migrate");
  });
});
