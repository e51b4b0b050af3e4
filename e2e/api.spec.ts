import { expect, test } from "@playwright/test";
import { storedEntry } from "./support/database";

test.describe("POST /api/waitlist on the production server", () => {
  test("stores a sign-up, then refuses the same email as already registered", async ({ request }) => {
    const email = `api.${Date.now()}@ridgeline-landscaping.example`;
    const signup = {
      company_name: "Ridgeline Landscaping",
      contact_name: "Sam Patel",
      email: `  ${email.toUpperCase()} `,
      phone: "555-010-2200",
      business_type: "landscaping",
      company_size: "11-25",
      notes: "Seasonal crews of 12-20.",
    };

    const created = await request.post("/api/waitlist", { data: signup });
    expect(created.status()).toBe(201);
    expect(await created.json()).toEqual({ ok: true });
    expect(storedEntry(email)).toMatchObject({ company_name: "Ridgeline Landscaping", email: email.toUpperCase() });

    const duplicate = await request.post("/api/waitlist", { data: { ...signup, email } });
    expect(duplicate.status()).toBe(409);
    expect((await duplicate.json()).error).toContain("already registered");
  });

  test("answers other methods with 405 JSON and an Allow header", async ({ request }) => {
    const response = await request.get("/api/waitlist");
    expect(response.status()).toBe(405);
    expect(response.headers()["allow"]).toBe("POST");
    expect(await response.json()).toEqual({ error: "Use POST to join the waitlist." });
  });
});
