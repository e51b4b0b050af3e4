import { VALID_SIGNUP } from "../tests/fixtures/signup";
import { storedEntry } from "./support/database";
import { expect, test, uniqueClientAddress } from "./support/test";
import { answeredQuestion } from "./support/waitlist";

const signup = (email: string) => ({ ...VALID_SIGNUP, email });

const uniqueEmail = (tag: string) => `${tag}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@ridgeline-landscaping.example`;

test.describe("POST /api/waitlist on the production server", () => {
  test("stores a sign-up, then refuses the same email as already registered", async ({ request }) => {
    const email = uniqueEmail("api");
    const created = await request.post("/api/waitlist", {
      data: { ...signup(`  ${email.toUpperCase()} `), ...(await answeredQuestion(request)) },
    });
    expect(created.status()).toBe(201);
    expect(await created.json()).toEqual({ ok: true });
    expect(storedEntry(email)).toMatchObject({ company_name: VALID_SIGNUP.company_name, email: email.toUpperCase() });

    const duplicate = await request.post("/api/waitlist", { data: { ...signup(email), ...(await answeredQuestion(request)) } });
    expect(duplicate.status()).toBe(409);
    expect((await duplicate.json()).error).toContain("already registered");
  });

  test("answers other methods with 405 JSON and an Allow header", async ({ request }) => {
    const response = await request.get("/api/waitlist");
    expect(response.status()).toBe(405);
    expect(response.headers()["allow"]).toBe("POST");
    expect(await response.json()).toEqual({
      error: "This address does not take that method. Use POST to join the waitlist.",
      code: "method_not_allowed",
    });
  });

  test("refuses before Next what no route takes, with the code of every error answer", async ({ request }) => {
    const tooLarge = await request.post("/api/waitlist", { headers: { "content-type": "application/json" }, data: "x".repeat(70 * 1024) });
    expect(tooLarge.status()).toBe(413);
    expect(tooLarge.headers()["x-error-code"]).toBe("too_large");
    const visitPut = await request.put("/api/visit", { data: "{}" });
    expect(visitPut.status()).toBe(405);
    expect(visitPut.headers()["allow"]).toBe("POST");
    expect(await visitPut.json()).toMatchObject({ code: "method_not_allowed" });
  });

  test("refuses a sign-up without a question from the server, and a question used twice", async ({ request }) => {
    const missing = await request.post("/api/waitlist", { data: signup(uniqueEmail("no-token")) });
    expect(missing.status()).toBe(400);
    expect(await missing.json()).toMatchObject({ code: "challenge_invalid" });

    const question = await answeredQuestion(request);
    const first = await request.post("/api/waitlist", { data: { ...signup(uniqueEmail("once")), ...question } });
    expect(first.status()).toBe(201);
    const email = uniqueEmail("twice");
    const again = await request.post("/api/waitlist", { data: { ...signup(email), ...question } });
    expect(again.status()).toBe(400);
    expect(await again.json()).toMatchObject({ code: "challenge_used" });
    expect(storedEntry(email)).toBeUndefined();
  });

  test("answers a filled-in honeypot like a success and stores nothing", async ({ request }) => {
    const email = uniqueEmail("bot");
    const response = await request.post("/api/waitlist", {
      data: { ...signup(email), ...(await answeredQuestion(request)), website: "https://cheap-pills.example" },
    });
    expect(response.status()).toBe(201);
    expect(await response.json()).toEqual({ ok: true });
    expect(storedEntry(email)).toBeUndefined();
  });

  test("refuses a post from another site's page", async ({ request }) => {
    const email = uniqueEmail("csrf");
    const response = await request.post("/api/waitlist", {
      headers: { Origin: "https://evil.example" },
      data: { ...signup(email), ...(await answeredQuestion(request)) },
    });
    expect(response.status()).toBe(403);
    expect(await response.json()).toMatchObject({ code: "foreign_origin" });
    expect(storedEntry(email)).toBeUndefined();
  });

  test("limits attempts per client address to 5 per 10 minutes, with Retry-After, and keeps other addresses apart", async ({
    playwright,
    baseURL,
  }) => {
    const address = uniqueClientAddress();
    const client = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "X-Forwarded-For": address } });
    try {
      for (let i = 0; i < 5; i += 1) {
        expect((await client.post("/api/waitlist", { data: {} })).status()).toBe(400);
      }
      const email = uniqueEmail("limited");
      const limited = await client.post("/api/waitlist", { data: { ...signup(email), ...(await answeredQuestion(client)) } });
      expect(limited.status()).toBe(429);
      const retryAfter = Number(limited.headers()["retry-after"]);
      expect(retryAfter).toBeGreaterThan(500);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(await limited.json()).toMatchObject({ code: "rate_limited", error: expect.any(String) });
      expect(storedEntry(email)).toBeUndefined();

      // Only the last proxy's entry counts: a visitor prepending addresses does not get a fresh bucket.
      const spoofed = await client.post("/api/waitlist", {
        headers: { "X-Forwarded-For": `203.0.113.9, ${address}` },
        data: {},
      });
      expect(spoofed.status()).toBe(429);
    } finally {
      await client.dispose();
    }
  });
});

test.describe("security headers", () => {
  const expected = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "strict-transport-security": "max-age=63072000; includeSubDomains",
  };

  for (const path of ["/", "/about", "/careers", "/no-such-page", "/api/waitlist", "/api/waitlist/challenge", "/sitemap.xml"]) {
    test(`are on ${path}`, async ({ request }) => {
      const response = await request.get(path);
      const headers = response.headers();
      expect(headers).toMatchObject(expected);
      expect(headers["permissions-policy"]).toContain("camera=()");
      expect(headers["x-powered-by"]).toBeUndefined();
      const csp = headers["content-security-policy"]!;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
      expect(csp).not.toContain("unsafe-eval");
      expect(csp).not.toContain("unsafe-inline");
    });
  }

  test("a build file carries the short policy, not the pages' script hashes", async ({ request }) => {
    const html = await (await request.get("/")).text();
    const stylesheet = html.match(/href="(\/_next\/static\/[^"]+\.css)"/)?.[1];
    expect(stylesheet).toBeDefined();
    const headers = (await request.get(stylesheet!)).headers();
    expect(headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
  });
});
