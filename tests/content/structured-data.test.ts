/**
 * The structured data search engines read (lib/content/structured-data.ts, issue 62): one
 * JobPosting per job, made from the same rows as the cards, with Google's required properties and
 * the recommended ones the content supports; and JSON that no content can break out of its script.
 */
import { describe, expect, it } from "vitest";
import { JOBS, JOBS_POSTED, salaryText } from "@/lib/content/careers";
import { jobPosting, jsonForScript, organization, webSite } from "@/lib/content/structured-data";
import { structuredDataIssues } from "../support/structured-data";

const SITE_URL = "https://fieldcrew.example";

describe("the careers content", () => {
  it("shows each salary as the spec gives it", () => {
    expect(JOBS.map((job) => salaryText(job.salary))).toEqual([
      "$140,000 - $175,000",
      "$60,000 - $80,000 + commission",
      "$70,000 - $90,000",
      "$65,000 - $85,000",
    ]);
  });

  it("was posted on a real day, before the postings end", () => {
    expect(Number.isNaN(Date.parse(JOBS_POSTED.on))).toBe(false);
    expect(Date.parse(JOBS_POSTED.until)).toBeGreaterThan(Date.parse(JOBS_POSTED.on));
  });
});

describe("a JobPosting", () => {
  it("has one per job, with the required properties and the page's own words", () => {
    for (const job of JOBS) {
      const posting = jobPosting(job, SITE_URL) as unknown as Record<string, unknown>;
      expect(posting).toMatchObject({
        "@type": "JobPosting",
        title: job.title,
        datePosted: JOBS_POSTED.on,
        validThrough: `${JOBS_POSTED.until}T23:59:59Z`,
        employmentType: "FULL_TIME",
        jobLocationType: "TELECOMMUTE",
        applicantLocationRequirements: { "@type": "Country", name: "US" },
        directApply: false,
        hiringOrganization: { name: "FieldCrew", sameAs: `${SITE_URL}/` },
        baseSalary: { currency: "USD", value: { minValue: job.salary.min, maxValue: job.salary.max, unitText: "YEAR" } },
      });
      expect(posting.description).toContain(job.description);
      for (const item of [...job.requirements, ...job.benefits]) expect(posting.description).toContain(item);
    }
  });

  it("passes Google's rules for a job posting, recommended properties included", async () => {
    expect(await structuredDataIssues(JOBS.map((job) => jobPosting(job, SITE_URL)))).toEqual([]);
  });

  it("is found wanting by the same rules without its date or its location", async () => {
    const { datePosted, applicantLocationRequirements, ...incomplete } = jobPosting(JOBS[0]!, SITE_URL);
    expect([datePosted, applicantLocationRequirements]).not.toContain(undefined);
    const issues = await structuredDataIssues([incomplete]);
    expect(issues.map((issue) => [issue.severity, issue.fieldNames])).toEqual(
      expect.arrayContaining([
        ["ERROR", ["datePosted"]],
        ["ERROR", ["applicantLocationRequirements"]],
      ]),
    );
  });

  it("names the commission on top of the range where the card does", () => {
    const sales = JOBS.find((job) => job.salary.plus)!;
    expect(jobPosting(sales, SITE_URL)).toMatchObject({ incentiveCompensation: "commission" });
  });
});

describe("the company and the site", () => {
  it("are an Organization with name, url and logo, and a WebSite, at the address the site runs at", () => {
    expect(organization(SITE_URL)).toMatchObject({
      "@type": "Organization",
      name: "FieldCrew",
      url: `${SITE_URL}/`,
      logo: `${SITE_URL}/apple-icon`,
    });
    expect(webSite(SITE_URL)).toMatchObject({ "@type": "WebSite", name: "FieldCrew", url: `${SITE_URL}/` });
  });

  it("pass Google's rules for an organization", async () => {
    expect(await structuredDataIssues([organization(SITE_URL), webSite(SITE_URL)])).toEqual([]);
  });
});

describe("the JSON in a script", () => {
  it("cannot close its script, open a comment, or break a line of JavaScript, and still reads back the same", () => {
    const hostile = { text: "</script><script>alert(1)</script><!-- & \u2028\u2029" };
    const json = jsonForScript(hostile);
    expect(json).not.toMatch(/<|>|&|\u2028|\u2029/);
    expect(JSON.parse(json)).toEqual(hostile);
  });
});
