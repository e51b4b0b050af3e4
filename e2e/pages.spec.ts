import AxeBuilder from "@axe-core/playwright";
import { get } from "node:http";
import { expect, test } from "./support/test";
import { FIGURES } from "../lib/content/site";
import { openFromHeader } from "./support/waitlist";

const PAGES = ["/", "/about", "/careers", "/no-such-page"];

test.describe("the landing page", () => {
  test("has the navigation, hero, sections, figures and footer the spec lists", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveTitle(/FieldCrew/);
    await expect(page.getByRole("banner").getByRole("link", { name: "Join Waitlist" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

    for (const id of ["features", "testimonials", "pricing"]) await expect(page.locator(`section#${id}`)).toBeVisible();
    const features = page.locator("#features");
    for (const title of [
      "Scheduling & Dispatch",
      "Invoicing & Payments",
      "Smart Reminders",
      "Customer Hub",
      "Revenue Insights",
      "Time Tracking",
    ]) {
      await expect(features.getByRole("heading", { name: title })).toBeVisible();
    }
    await expect(page.locator("#testimonials blockquote")).toHaveCount(3);

    const body = page.locator("main");
    await expect(body).toContainText(`${FIGURES.companiesWaiting} companies waiting`);
    await expect(body).toContainText("476 companies secured");
    await expect(body).toContainText("Limited to 100 founding members");
    await expect(body).toContainText("50% off for life");
    await expect(body).toContainText("48 hours average response");
    await expect(page.getByRole("region", { name: /Run your whole service business/ })).toContainText("Only 53 spots left this month");
    await expect(page.getByRole("region", { name: "Claim your founding-member spot" })).toContainText("Only 24 spots left this month");

    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: "About" })).toHaveAttribute("href", "/about");
    await expect(footer.getByRole("link", { name: "Careers" })).toHaveAttribute("href", "/careers");
  });

  test("shows the three plans with prices under a Coming Soon overlay", async ({ page }) => {
    await page.goto("/");
    const pricing = page.locator("#pricing");
    const expected = [
      ["Starter", "$49", "$99", "Up to 3 technicians"],
      ["Professional", "$99", "$199", "Up to 10 technicians"],
      ["Enterprise", "$249", "$499", "Unlimited technicians"],
    ];
    for (const [name, price, was, technicians] of expected) {
      const card = pricing.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
      await expect(card).toContainText(`${price}/month`);
      await expect(card).toContainText(`${was}/month`);
      await expect(card).toContainText(technicians!);
      await expect(card.getByText("Coming Soon", { exact: true })).toBeVisible();
    }
    await expect(pricing.getByRole("listitem").filter({ hasText: "Most Popular" }).getByRole("heading")).toHaveText("Professional");
  });

  test("navigation anchors lead to their sections", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/about");
    for (const [label, id] of [
      ["Features", "features"],
      ["Pricing", "pricing"],
      ["Testimonials", "testimonials"],
    ]) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label }).click();
      await expect(page).toHaveURL(new RegExp(`/#${id}$`));
      await expect(page.locator(`#${id}`)).toBeInViewport();
    }
  });
});

test("a page fetches no other page until a link is followed, and the phone menu starts closed on the next page", async ({ page }) => {
  const otherPages: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    const isPage = ["document", "fetch"].includes(request.resourceType());
    if (isPage && (url.pathname !== "/" || url.search)) otherPages.push(url.pathname + url.search);
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/", { waitUntil: "networkidle" });
  await page.mouse.wheel(0, 4000);
  await page.waitForLoadState("networkidle");
  expect(otherPages).toEqual([]);

  await page.locator("summary", { hasText: "Menu" }).click();
  await page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Careers" }).click();
  await expect(page).toHaveURL(/\/careers$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Help the trades run better");
  await expect(page.getByRole("navigation", { name: "Mobile" })).toBeHidden();
  expect(otherPages).toEqual(["/careers"]);
});

test("the phone menu closes on an in-page choice, on Escape and on a tap elsewhere", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/", { waitUntil: "networkidle" });
  const menuButton = page.locator("summary", { hasText: "Menu" });
  const menu = page.getByRole("navigation", { name: "Mobile" });

  await menuButton.click();
  await menu.getByRole("link", { name: "Pricing" }).click();
  await expect(page).toHaveURL(/\/#pricing$/);
  await expect(menu).toBeHidden();
  await expect(page.locator("#pricing")).toBeInViewport();

  // From the keyboard, with Escape straight after opening.
  await menuButton.focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();

  await menuButton.click();
  await expect(menu).toBeVisible();
  await page.mouse.click(16, 700); // the page's left edge, beside the right-aligned menu
  await expect(menu).toBeHidden();
});

test("the about page has the story, three values, two founders and the mission", async ({ page }) => {
  await page.goto("/about");
  await expect(page).toHaveTitle(/About FieldCrew/);
  await expect(page.getByRole("heading", { name: "Our story" })).toHaveCount(0); // eyebrow, not a heading
  await expect(page.getByText("Our story", { exact: true })).toBeVisible();
  for (const value of ["Service First", "Simplicity", "Authenticity"]) {
    await expect(page.getByRole("heading", { name: value, level: 3 })).toBeVisible();
  }
  await expect(page.getByRole("region", { name: "The people behind FieldCrew" }).getByRole("heading", { level: 3 })).toHaveCount(2);
  await expect(page.getByRole("heading", { name: "Our mission" })).toBeVisible();
});

test("the careers page lists four remote, full-time roles with disabled Coming Soon buttons and three steps", async ({ page }) => {
  await page.goto("/careers");
  const titles = ["Senior Full Stack Developer", "Sales Representative", "Customer Success Manager", "Marketing Specialist"];
  const jobs = page.getByRole("article");
  await expect(jobs).toHaveCount(4);
  for (const title of titles) {
    const job = page.getByRole("article", { name: title });
    await expect(job).toContainText("Remote");
    await expect(job).toContainText("Full-time");
    await expect(job).toContainText("Department:");
    await expect(job).toContainText(/\$\d{2,3},000 - \$\d{2,3},000/);
    await expect(job.getByRole("heading", { name: "What you'll bring" })).toBeVisible();
    await expect(job.getByRole("heading", { name: "What we offer" })).toBeVisible();
    await expect(job.getByRole("button", { name: "Coming Soon" })).toBeDisabled();
  }
  await expect(page.getByRole("region", { name: "Three steps, no runaround" }).getByRole("listitem")).toHaveCount(3);
});

test("an unknown address gets a 404 page with the navigation and a way home", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "We couldn't find that page" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: "Join Waitlist" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the home page" }).click();
  await expect(page).toHaveURL(/\/$/);
});

/** The hydration data Next.js inlines in a page's HTML (its `self.__next_f.push` scripts), as one text. */
function hydrationData(html: string): string {
  return [...html.matchAll(/<script[^>]*>self\.__next_f\.push\((.*?)\)<\/script>/gs)]
    .map(([, call]) => JSON.parse(call!) as [number, string?])
    .map(([, text]) => text ?? "")
    .join("");
}

test("each page's hydration data spells out the site's header and footer once", async ({ request }) => {
  // Next.js puts the 404 boundary's tree in every page's data. Each further copy of the frame there
  // was 3-4 KB more for a phone to parse on every page (issue 41); a repeat is now a reference.
  for (const path of ["/", "/about", "/careers", "/join"]) {
    const data = hydrationData(await (await request.get(path)).text());
    expect(data.match(/\["\$","header",null,\{/g), path).toHaveLength(1);
    expect(data.match(/\["\$","footer",null,\{/g), path).toHaveLength(1);
    // The 404 message too: the second boundary refers to the first's (2.1 KB).
    expect(data.match(/We couldn't find that page/g), path).toHaveLength(1);
  }
});

test("each page's document, as Chromium asks for it, fits in a new connection's first round trip", async ({ baseURL }) => {
  // A new TCP connection's first flight is 10 segments (14,600 bytes). The home page's document was
  // 15.8 KB with gzip and its headers: a phone waited a second round trip before its first paint
  // (issue 41). With Brotli it is about 12.5 KB (lib/site/compression.ts).
  const FIRST_FLIGHT_BYTES = 10 * 1460;
  for (const path of ["/", "/about", "/careers", "/join"]) {
    const { headerBytes, bodyBytes, encoding } = await new Promise<{ headerBytes: number; bodyBytes: number; encoding?: string }>(
      (resolve, reject) => {
        get(new URL(path, baseURL), { headers: { "accept-encoding": "gzip, deflate, br, zstd" } }, (answer) => {
          let bodyBytes = 0;
          answer.on("data", (chunk: Buffer) => (bodyBytes += chunk.length));
          answer.on("end", () => {
            const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`];
            for (let i = 0; i < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
            resolve({
              headerBytes: Buffer.byteLength(`${lines.join("\r\n")}\r\n\r\n`),
              bodyBytes,
              encoding: answer.headers["content-encoding"],
            });
          });
        }).on("error", reject);
      },
    );
    expect(encoding, path).toBe("br");
    expect(headerBytes + bodyBytes, `${path}: ${headerBytes} bytes of headers, ${bodyBytes} of Brotli`).toBeLessThanOrEqual(
      FIRST_FLIGHT_BYTES,
    );
  }
});

test("check marks, quote marks and decorative icons are drawn by the stylesheet, each in its colour", async ({ page }) => {
  // The marks were an icon element each: 10-15 KB of a page's markup and hydration data (issue 41).
  for (const path of ["/", "/careers"]) {
    await page.goto(path);
    const items = page.locator("li.check-item");
    expect(await items.count(), path).toBeGreaterThan(20);
    expect(await items.locator("svg").count(), path).toBe(0);
    const marks = await items.evaluateAll((lis) =>
      lis.map((li) => {
        const mark = getComputedStyle(li, "::before");
        return { content: mark.content, size: `${mark.width} ${mark.height}`, mask: mark.maskImage, colour: mark.backgroundColor };
      }),
    );
    for (const mark of marks) {
      expect(mark.content).toBe('""');
      expect(mark.size).toBe("16px 16px");
      expect(mark.mask).toContain("data:image/svg+xml");
    }
    // The brand's orange on light sections, its lighter tone on the dark hero and pricing card.
    const colours = new Set(marks.map((mark) => mark.colour));
    expect(
      [...colours].every((colour) => ["rgb(194, 65, 12)", "rgb(251, 146, 60)"].includes(colour)),
      [...colours].join(),
    ).toBe(true);
  }
  // The testimonials' quote marks and the decorative icons, drawn the same way: each its own drawing.
  // Tailwind's slate-500 (oklch), as Chromium computes the mark's currentColor from it.
  const slate500 = "lab(48.0876 -2.03595 -16.5814)";
  for (const [path, marked, count, size, colour, drawings] of [
    ["/", "#testimonials figure", 3, "32px 24px", "rgb(251, 146, 60)", 1],
    ["/", "#features li > span.icon-before", 6, "24px 24px", "rgb(251, 146, 60)", 6],
    ["/about", "section[aria-labelledby=values-title] li > span.icon-before", 3, "24px 24px", "rgb(194, 65, 12)", 3],
    ["/careers", "article li.icon-before", 16, "16px 16px", slate500, 4],
  ] as const) {
    if (new URL(page.url()).pathname !== path) await page.goto(path);
    const elements = page.locator(marked);
    await expect(elements).toHaveCount(count);
    expect(await elements.locator("svg").count(), marked).toBe(0);
    const marks = await elements.evaluateAll((all) =>
      all.map((element) => {
        const before = getComputedStyle(element, "::before");
        return {
          content: before.content,
          size: `${before.width} ${before.height}`,
          mask: before.maskImage,
          colour: before.backgroundColor,
        };
      }),
    );
    for (const mark of marks)
      expect(mark, marked).toEqual({ content: '""', size, mask: expect.stringContaining("data:image/svg+xml"), colour });
    expect(new Set(marks.map((mark) => mark.mask)).size, marked).toBe(drawings);
  }
});

test("each page has its own title, description and Open Graph tags; sitemap and robots exist", async ({ page, request }) => {
  const titles = new Set<string>();
  for (const path of ["/", "/about", "/careers"]) {
    await page.goto(path);
    titles.add(await page.title());
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{50,}/);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", await page.title());
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", new RegExp(`${path === "/" ? "" : path}$`));
  }
  expect(titles.size).toBe(3);
  const sitemap = await (await request.get("/sitemap.xml")).text();
  for (const path of ["/about", "/careers"]) expect(sitemap).toContain(path);
  expect(await (await request.get("/robots.txt")).text()).toContain("Sitemap:");
});

for (const width of [360, 1440]) {
  test(`no page scrolls sideways at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    for (const path of PAGES) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      // Content clipped by an overflow-hidden section does not scroll but is cut off just the same.
      const cutOff = await page.evaluate(() =>
        [...document.querySelectorAll("main :is(h1, h2, h3, p, li, a, button)")]
          .filter((element) => {
            const box = element.getBoundingClientRect();
            return box.width > 0 && (box.right > window.innerWidth + 1 || box.left < -1);
          })
          .map((element) => `${element.tagName}: ${element.textContent?.slice(0, 40)}`),
      );
      expect(cutOff, path).toEqual([]);
    }
  });
}

test.describe("accessibility (axe: WCAG 2 A, AA, 2.1 AA)", () => {
  const scan = (page: import("@playwright/test").Page) => new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21aa"]).analyze();

  for (const path of PAGES) {
    test(`no violations on ${path}`, async ({ page }) => {
      await page.goto(path);
      expect((await scan(page)).violations).toEqual([]);
    });
  }

  test("no violations on the open dialog, with its errors showing", async ({ page }) => {
    await page.goto("/");
    const dialog = await openFromHeader(page);
    expect((await scan(page)).violations).toEqual([]);
    await dialog.getByRole("button", { name: "Secure My Spot" }).click();
    await expect(dialog.getByText("Enter your company name.")).toBeVisible();
    expect((await scan(page)).violations).toEqual([]);
  });
});

test.describe("Content-Security-Policy", () => {
  for (const path of PAGES) {
    test(`${path} runs, styles and opens the dialog with nothing blocked`, async ({ page }) => {
      const violations: string[] = [];
      await page.exposeFunction("reportCspViolation", (text: string) => violations.push(text));
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => {
          (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation(
            `${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`,
          );
        });
      });
      const consoleErrors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") consoleErrors.push(message.text());
      });

      await page.goto(path);
      // Hydrated (the dialog opens) and the question came from the server.
      const dialog = await openFromHeader(page);
      await expect(dialog.getByTestId("math-question")).toBeVisible();
      await page.waitForLoadState("networkidle");

      expect(violations).toEqual([]);
      expect(consoleErrors.filter((text) => /Content Security Policy|Refused to/.test(text))).toEqual([]);
    });
  }

  test("the banner glow is drawn from the stylesheet; no page is served with inline styles", async ({ page, request }) => {
    await page.goto("/");
    const lights = await page
      .locator("section")
      .first()
      .locator(".brand-glow")
      .evaluate((glow) => getComputedStyle(glow).backgroundImage);
    // The warm light and the cool one: two background layers of the one element.
    expect(lights).toMatch(/^radial-gradient\(.*\), radial-gradient\(.*\)$/);
    // (Scripts may still set styles through the DOM, which the policy allows.)
    for (const path of PAGES) expect(await (await request.get(path)).text(), path).not.toMatch(/<style|\sstyle="/);
  });
});
