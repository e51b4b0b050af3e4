/**
 * What search engines read about the company and its jobs (schema.org as JSON-LD): an Organization
 * and a WebSite on `/`, one JobPosting per job on `/careers`, made from the same content as the
 * pages (./careers.ts, ./site.ts), so the markup cannot say what the page does not.
 * docs/operations.md, "Search engines and link previews", says how the postings fit Google's
 * job-posting guidelines while applications are not open.
 */
import type { JobPosting, Organization, WebSite, WithContext } from "schema-dts";
import { JOBS_POSTED, type Job } from "./careers";
import { SITE } from "./site";

/** The logo search engines show for the company: the site's 180-pixel icon (app/apple-icon.tsx). */
const LOGO_PATH = "/apple-icon";

export function organization(siteUrl: string): WithContext<Organization> {
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    "@id": new URL("/#organization", siteUrl).toString(),
    name: SITE.name,
    url: new URL("/", siteUrl).toString(),
    logo: new URL(LOGO_PATH, siteUrl).toString(),
    description: SITE.description,
    email: SITE.contactEmail,
  };
}

export function webSite(siteUrl: string): WithContext<WebSite> {
  return {
    "@context": "https://schema.org",
    "@type": "WebSite",
    name: SITE.name,
    url: new URL("/", siteUrl).toString(),
    description: SITE.tagline,
    publisher: { "@id": new URL("/#organization", siteUrl).toString() },
    inLanguage: "en-US",
  };
}

const html = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A job's text as the page shows it: its description, what you bring, what we offer (HTML, as Google takes it). */
function descriptionOf(job: Job): string {
  const list = (title: string, items: readonly string[]) =>
    `<p>${html(title)}</p><ul>${items.map((item) => `<li>${html(item)}</li>`).join("")}</ul>`;
  return `<p>${html(job.description)}</p>${list("What you'll bring", job.requirements)}${list("What we offer", job.benefits)}`;
}

export function jobPosting(job: Job, siteUrl: string): WithContext<JobPosting> {
  return {
    "@context": "https://schema.org",
    "@type": "JobPosting",
    identifier: { "@type": "PropertyValue", name: SITE.name, value: job.id },
    title: job.title,
    description: descriptionOf(job),
    datePosted: JOBS_POSTED.on,
    validThrough: `${JOBS_POSTED.until}T23:59:59Z`,
    employmentType: job.type === "Full-time" ? "FULL_TIME" : "OTHER",
    hiringOrganization: {
      "@type": "Organization",
      name: SITE.name,
      sameAs: new URL("/", siteUrl).toString(),
      logo: new URL(LOGO_PATH, siteUrl).toString(),
    },
    jobLocationType: "TELECOMMUTE",
    applicantLocationRequirements: { "@type": "Country", name: "US" },
    baseSalary: {
      "@type": "MonetaryAmount",
      currency: "USD",
      value: { "@type": "QuantitativeValue", minValue: job.salary.min, maxValue: job.salary.max, unitText: "YEAR" },
    },
    ...(job.salary.plus ? { incentiveCompensation: job.salary.plus } : {}),
    // What you bring and what we offer are in the description already: not repeated as
    // qualifications and jobBenefits, which the page would carry twice over (its HTML and React's payload).
    industry: "Software for field-service businesses",
    occupationalCategory: job.department,
    // Applications are not open yet (the cards' Coming Soon), and will not be made on this page alone.
    directApply: false,
    url: new URL(`/careers#job-${job.id}`, siteUrl).toString(),
  };
}

/**
 * JSON for a <script type="application/ld+json">: no content can close the script or open a
 * comment in it (`<` as \u003c), and JavaScript's line separators are escaped too.
 */
export function jsonForScript(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
