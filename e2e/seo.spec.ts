/**
 * The site as search engines and link previews read it (issue 62; docs/operations.md, "Search
 * engines and link previews"), with the clients others use: open-graph-scraper reads each public
 * page as a chat app's link preview does, the picture is fetched from the site and its size read
 * from its bytes, and Google's rich-result rules (Adobe's validator) read the structured data the
 * page carries.
 */
import { createHash } from "node:crypto";
import ogs from "open-graph-scraper";
import { expect, test } from "./support/test";
import { PAGES } from "../lib/content/pages";
import { JOBS } from "../lib/content/careers";
import { structuredDataIssues } from "../tests/support/structured-data";

const PUBLIC_PAGES = Object.values(PAGES);

/** A PNG's width and height, from its IHDR chunk (bytes 16-23). */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** A link preview of `url`, as open-graph-scraper gives it (localhost has no top-level domain). */
async function linkPreview(url: string) {
  const { error, result } = await ogs({ url, urlValidatorSettings: { require_tld: false } as never });
  expect(error, url).toBe(false);
  return result;
}

for (const info of PUBLIC_PAGES) {
  test(`a link to ${info.path} previews with its title, description and a 1200 × 630 picture of its own`, async ({ request, baseURL }) => {
    const preview = await linkPreview(new URL(info.path, baseURL).toString());
    expect(preview).toMatchObject({
      ogTitle: info.title,
      ogDescription: info.description,
      twitterCard: "summary_large_image",
    });
    // Next writes the root's address without its slash: the same address.
    expect(new URL(preview.ogUrl!).toString()).toBe(new URL(info.path, baseURL).toString());
    const [image] = preview.ogImage ?? [];
    const [twitterImage] = preview.twitterImage ?? [];
    expect(image?.url.startsWith(`${baseURL}/`), image?.url).toBe(true);
    expect(twitterImage?.url).toBe(image?.url);
    expect(image).toMatchObject({ width: "1200", height: "630", type: "image/png", alt: expect.stringContaining(info.title) });

    const answer = await request.get(image!.url);
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toBe("image/png");
    expect(pngSize(await answer.body())).toEqual({ width: 1200, height: 630 });
  });
}

test("every page's picture is its own", async ({ baseURL }) => {
  const images = await Promise.all(
    PUBLIC_PAGES.map(async (info) => (await linkPreview(new URL(info.path, baseURL).toString())).ogImage?.[0]?.url),
  );
  expect(new Set(images).size).toBe(PUBLIC_PAGES.length);
});

test("an iPhone's home-screen icon is a 180 × 180 PNG", async ({ page, request }) => {
  await page.goto("/");
  const href = await page.locator('link[rel="apple-touch-icon"]').getAttribute("href");
  const answer = await request.get(href!);
  expect(answer.headers()["content-type"]).toBe("image/png");
  expect(pngSize(await answer.body())).toEqual({ width: 180, height: 180 });
});

/** The JSON-LD objects `path` carries, and the page's Content-Security-Policy. */
async function structuredDataOf(page: import("@playwright/test").Page, path: string) {
  const response = await page.goto(path);
  const scripts = await page.locator('script[type="application/ld+json"]').allTextContents();
  return {
    items: scripts.map((text) => JSON.parse(text) as Record<string, unknown>),
    scripts,
    policy: response!.headers()["content-security-policy"] ?? "",
  };
}

test("the home page names the company and the site, and Google's rules find nothing missing", async ({ page, baseURL }) => {
  const { items } = await structuredDataOf(page, "/");
  expect(items.map((item) => item["@type"]).sort()).toEqual(["Organization", "WebSite"]);
  const organization = items.find((item) => item["@type"] === "Organization")!;
  expect(organization).toMatchObject({ name: "FieldCrew", url: `${baseURL}/` });
  // The logo is the site's own icon, fetched from the address the markup names.
  const logo = await page.request.get(String(organization.logo));
  expect(logo.headers()["content-type"]).toBe("image/png");
  expect(await structuredDataIssues(items)).toEqual([]);
});

test("the careers page has one JobPosting per job card, the card's own, and Google's rules find nothing missing", async ({ page }) => {
  const { items } = await structuredDataOf(page, "/careers");
  const cards = page.getByRole("region", { name: /roles, all remote/ }).getByRole("article");
  await expect(cards).toHaveCount(JOBS.length);
  const cardTitles = await cards.getByRole("heading", { level: 3 }).allTextContents();
  expect(items.filter((item) => item["@type"] === "JobPosting").map((item) => item.title)).toEqual(cardTitles);
  for (const [i, card] of (await cards.all()).entries()) {
    const posting = items[i]! as { baseSalary: { value: { minValue: number; maxValue: number } } };
    const { minValue, maxValue } = posting.baseSalary.value;
    await expect(card).toContainText(`$${minValue.toLocaleString("en-US")} - $${maxValue.toLocaleString("en-US")}`);
    await expect(card.getByText("Coming Soon")).toBeVisible();
  }
  expect(await structuredDataIssues(items)).toEqual([]);
});

test("the structured data is allowed by the page's strict policy, by hash, and no script ran from it", async ({ page }) => {
  for (const path of ["/", "/careers"]) {
    const { scripts, policy } = await structuredDataOf(page, path);
    expect(policy).not.toContain("unsafe-inline");
    for (const script of scripts) expect(policy, path).toContain(`'sha256-${createHash("sha256").update(script).digest("base64")}'`);
  }
});

test("the sitemap lists exactly the public pages, at the address the site runs at", async ({ request, baseURL }) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, url]) => url).sort();
  expect(listed).toEqual(PUBLIC_PAGES.map((info) => new URL(info.path, baseURL).toString()).sort());
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  for (const path of ["/waitlist/entry/", "/waitlist/unsubscribe/", "/operator", "/api/"]) expect(robots).toContain(`Disallow: ${path}`);
});

test("the console and its sign-in tell search engines to stay out, signed in or not", async ({ request }) => {
  for (const path of ["/operator/sign-in", "/operator/entries", "/operator/overview"]) {
    const answer = await request.get(path, { maxRedirects: 0 });
    expect({ path, robots: answer.headers()["x-robots-tag"] }).toEqual({ path, robots: "noindex, nofollow" });
  }
});

test("security.txt says whom to tell, until when, and where it lives (RFC 9116)", async ({ request, baseURL }) => {
  const answer = await request.get("/.well-known/security.txt");
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  const fields = Object.fromEntries(
    (await answer.text())
      .trim()
      .split("\n")
      .map((line) => line.split(/: (.*)/s).slice(0, 2)),
  );
  expect(fields).toMatchObject({
    Contact: "mailto:hello@fieldcrew.app",
    Canonical: `${baseURL}/.well-known/security.txt`,
    "Preferred-Languages": "en",
  });
  const expires = Date.parse(fields.Expires);
  const days = (expires - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(300);
  expect(days).toBeLessThanOrEqual(366);
});
