/**
 * `stats` and its funnel from a visit to an invitation (lib/cli/stats.ts). Against a real migrated SQLite file filled through the
 * site's own store; each command line run in this process, or as the real command
 * (`node scripts/waitlist.mjs`) where only a process shows it (tests/support/cli.ts).
 */
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { createVisitHandler } from "@/lib/analytics/handler";
import { VisitCounter } from "@/lib/analytics/record";
import { DailySalt } from "@/lib/analytics/visitor";
import { CLIENT_ADDRESS_HEADER } from "@/lib/security/client-address";

import { cliOnTestDatabase } from "../support/cli";

const { waitlist, seed } = cliOnTestDatabase();

describe("npm run waitlist -- stats", () => {
  it("counts in total, by business type, company size, source and page, and per day for 30 days", async () => {
    await seed(
      { business_type: "hvac", company_size: "1-5", utm_source: "google", source_page: "/", daysAgo: 0 },
      { business_type: "hvac", company_size: "6-10", utm_source: "google", source_page: "/careers", daysAgo: 0 },
      { business_type: "plumbing", company_size: "6-10", source_page: "/", daysAgo: 2 },
      { business_type: "landscaping", company_size: "50+", daysAgo: 45 },
    );
    const { status, stdout } = await waitlist(["stats"]);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^Sign-ups: 4 \(first \d{4}-\d\d-\d\d, latest \d{4}-\d\d-\d\d, UTC\)/);
    expect(stdout).toMatch(/HVAC\s+2\s+50\.0%/);
    expect(stdout).toMatch(/Plumbing\s+1\s+25\.0%/);
    expect(stdout).toMatch(/Electrical\s+0\s+0\.0%/);
    expect(stdout).toMatch(/6-10 employees\s+2\s+50\.0%/);
    expect(stdout).toMatch(/google\s+2\s+50\.0%/);
    expect(stdout).toMatch(/\(not recorded\)\s+2\s+50\.0%/);
    expect(stdout).toMatch(/\/careers\s+1\s+25\.0%/);

    const days = stdout.split("Last 30 days (UTC)\n")[1]!.trim().split("\n");
    expect(days).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    expect(days.at(-1)).toMatch(new RegExp(`^${today}\\s+2\\s+█+$`));
    expect(days.find((line) => line.startsWith(twoDaysAgo))).toMatch(/\s1\s+█+$/);
    // The sign-up 45 days ago counts in the total, not in the last 30 days.
    expect(days.reduce((sum, line) => sum + Number(line.split(/\s+/)[1]), 0)).toBe(3);
  });
});

describe("npm run waitlist -- stats: the funnel", () => {
  it("prints the site's funnel, per campaign and per page, over the range asked for", async () => {
    const site = "http://localhost:3000";
    const visits = createVisitHandler({
      siteUrl: site,
      counter: new VisitCounter({ database: getDatabase, capPerAddress: 100 }),
      salt: new DailySalt(getDatabase),
    });
    const beacon = (body: object, address: string) =>
      visits.post(
        new Request(`${site}/api/visit`, {
          method: "POST",
          headers: {
            "content-type": "text/plain",
            origin: site,
            "user-agent": "Mozilla/5.0 Chrome/131.0 Safari/537.36",
            [CLIENT_ADDRESS_HEADER]: address,
          },
          body: JSON.stringify(body),
        }),
      );
    const campaign = { utm_source: "newsletter", utm_medium: "email", utm_campaign: "launch-week" };
    for (const address of ["203.0.113.1", "198.51.100.1", "192.0.2.1", "192.0.2.200"])
      await beacon({ type: "view", page: "/about", ...campaign }, address);
    await beacon({ type: "open", page: "/about", ...campaign }, "203.0.113.1");
    await beacon({ type: "submit", page: "/about", ...campaign }, "203.0.113.1");
    await visits.drain();
    await seed({ source_page: "/about", utm_source: "newsletter", utm_medium: "email", utm_campaign: "launch-week", daysAgo: 0 });
    const today = new Date().toISOString().slice(0, 10);

    const { status, stdout } = await waitlist(["stats", "--from", today, "--to", today]);
    expect(status).toBe(0);
    expect(stdout).toContain(`Visits and the funnel, ${today} to ${today}`);
    expect(stdout).toContain("Page views: 4");
    // 192.0.2.1 and 192.0.2.200 are one /24 with one browser: three visitors of the day.
    expect(stdout).toMatch(/launch-week\s+3\s+1\s+1\s+1\s+0\s+0\s+0\s+0\s+33\.3%/);
    expect(stdout).toMatch(/\/about\s+3\s+1\s+1\s+1\s+0\s+0\s+0\s+0\s+33\.3%/);

    // Sign-ups the counter never saw (scripts off, the counter blocked, Do Not Track): their own
    // figure, explained, and never a rate over all counted visitors (800% here before).
    for (let i = 0; i < 8; i += 1)
      await seed({ source_page: "/careers", utm_source: "partner", utm_medium: "referral", utm_campaign: "no-script" });
    await beacon(
      { type: "view", page: "/careers", utm_source: "partner", utm_medium: "referral", utm_campaign: "no-script" },
      "198.51.100.77",
    );
    await visits.drain();
    const uncounted = (await waitlist(["stats", "--from", today, "--to", today])).stdout;
    expect(uncounted).toMatch(/no-script\s+1\s+0\s+0\s+8\s+0\s+0\s+0\s+8\s+0\.0%/);
    expect(uncounted).toContain("No counted visit: sign-ups from visitors the counter did not see");
    const funnel = uncounted.slice(uncounted.indexOf("Visits and the funnel"), uncounted.indexOf("Last 30 days"));
    const rates = [...funnel.matchAll(/(\d+\.\d)%/g)].map((match) => Number(match[1]));
    expect(rates.length).toBeGreaterThan(0);
    expect(Math.max(...rates)).toBeLessThanOrEqual(100);

    const bad = await waitlist(["stats", "--from", "last week"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--from must be a day such as 2026-11-01");
  });
});
