/**
 * Where a sign-up came from: captured in the browser (lib/waitlist/source.ts),
 * checked by the schema and stored by the real route handler.
 */
import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/waitlist/route";
import { rememberCampaign, signupSource } from "@/lib/waitlist/source";
import { countEntries, setUpTestDatabase, storedEntries } from "../support/database";
import { answerOf, jsonRequest, signupBody } from "../support/requests";

setUpTestDatabase();

/** The part of sessionStorage the capture uses, kept in a Map. */
function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
}

describe("capturing the source in the browser", () => {
  it("keeps the landing URL's campaign for the visit and adds the page the sign-up is made on", () => {
    const storage = memoryStorage();
    rememberCampaign("?utm_source=google&utm_medium=cpc&utm_campaign=spring+launch&gclid=abc", storage);
    rememberCampaign("", storage); // a later page without utm parameters keeps the campaign
    expect(signupSource("/careers", storage)).toEqual({
      source_page: "/careers",
      utm_source: "google",
      utm_medium: "cpc",
      utm_campaign: "spring launch",
    });
  });

  it("lets a later campaign replace an earlier one, and sends nulls without one", () => {
    const storage = memoryStorage();
    expect(signupSource("/", storage)).toEqual({ source_page: "/", utm_source: null, utm_medium: null, utm_campaign: null });
    rememberCampaign("?utm_source=newsletter", storage);
    rememberCampaign("?utm_source=%20facebook%20&utm_campaign=", storage);
    expect(signupSource("/about", storage)).toMatchObject({ utm_source: "facebook", utm_medium: null, utm_campaign: null });
  });

  it("clamps values to what the server accepts and survives storage that fails", () => {
    const storage = memoryStorage();
    rememberCampaign(`?utm_campaign=${"x".repeat(500)}`, storage);
    expect(signupSource(`/${"p".repeat(400)}`, storage)).toMatchObject({
      source_page: `/${"p".repeat(299)}`,
      utm_campaign: "x".repeat(200),
    });
    const broken = {
      getItem: () => "{not json",
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(() => rememberCampaign("?utm_source=a", broken)).not.toThrow();
    expect(signupSource("/", broken).utm_source).toBeNull();
    expect(signupSource("/", undefined)).toMatchObject({ source_page: "/", utm_source: null });
  });
});

describe("storing the source through POST /api/waitlist", () => {
  it("stores the page and the campaign with the sign-up", async () => {
    const body = {
      ...signupBody(),
      source_page: "/careers",
      utm_source: "google",
      utm_medium: "cpc",
      utm_campaign: "Spring 'Launch' <2026>",
    };
    expect((await POST(jsonRequest(body))).status).toBe(201);
    expect((await storedEntries())[0]).toMatchObject({
      source_page: "/careers",
      utm_source: "google",
      utm_medium: "cpc",
      utm_campaign: "Spring 'Launch' <2026>",
    });
  });

  it("stores NULL for missing or blank source fields (older clients, direct API calls)", async () => {
    expect((await POST(jsonRequest(signupBody()))).status).toBe(201);
    expect((await POST(jsonRequest({ ...signupBody(), source_page: "", utm_source: "  " }))).status).toBe(201);
    for (const row of await storedEntries()) {
      expect(row).toMatchObject({ source_page: null, utm_source: null, utm_medium: null, utm_campaign: null });
    }
  });

  it.each([
    ["a page that is not a path", { source_page: "https://evil.example/" }, "The source page must be a path on this site, like /careers."],
    ["a page over 300 characters", { source_page: `/${"a".repeat(300)}` }, "The source page must be 300 characters or fewer."],
    ["a utm value over 200 characters", { utm_campaign: "c".repeat(201) }, "utm_campaign must be 200 characters or fewer."],
    ["a utm value that is not text", { utm_source: ["a"] }, "utm_source must be text."],
  ])("refuses %s with a field error and stores nothing", async (_, source, message) => {
    const answer = await answerOf(await POST(jsonRequest({ ...signupBody(), ...source })));
    expect(answer.status).toBe(400);
    expect(Object.values(answer.body.fields as Record<string, string>)).toEqual([message]);
    expect(await countEntries()).toBe(0);
  });
});
