/**
 * The real route handler (app/api/waitlist/route.ts) against a real SQLite file
 * migrated with the project's own migrations.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import * as route from "@/app/api/waitlist/route";
import { countEntries, setUpTestDatabase, storedEntries } from "../support/database";
import { ENDPOINT_URL, answerOf, jsonRequest, signupBody } from "../support/requests";

setUpTestDatabase();

const post = (request: Request) => route.POST(request);

/** Sends a request that must be refused, and proves the table did not change. */
async function expectRefused(request: Request, status: number) {
  await post(jsonRequest(signupBody({ email: "already.here@example.com" })));
  const before = await countEntries();
  const answer = await answerOf(await post(request));
  expect(answer.status).toBe(status);
  expect(typeof answer.body.error).toBe("string");
  expect(await countEntries()).toBe(before);
  return answer;
}

describe("POST /api/waitlist", () => {
  afterEach(() => vi.restoreAllMocks());

  it("stores a valid sign-up and answers 201 with a small JSON body", async () => {
    const signup = signupBody({ email: "  Owner@Example.com ", company_name: " Acme Plumbing " });
    const response = await post(jsonRequest(signup));

    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ ok: true });

    const rows = await storedEntries();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      company_name: "Acme Plumbing",
      contact_name: signup.contact_name,
      email: "Owner@Example.com",
      email_normalized: "owner@example.com",
      phone: signup.phone,
      business_type: "hvac",
      company_size: "6-10",
      notes: signup.notes,
    });
    expect(rows[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    expect(Date.now() - Date.parse(rows[0]!.created_at)).toBeLessThan(60_000);
  });

  it("accepts a charset on the content type and a sign-up without notes", async () => {
    const withoutNotes: Partial<ReturnType<typeof signupBody>> = signupBody();
    delete withoutNotes.notes;
    const response = await post(jsonRequest(withoutNotes, { headers: { "content-type": "application/json; charset=utf-8" } }));
    expect(response.status).toBe(201);
    expect((await storedEntries())[0]!.notes).toBeNull();
  });

  it("answers 409 'already registered' for the same email in another case and spacing", async () => {
    expect((await post(jsonRequest(signupBody({ email: "owner@example.com" })))).status).toBe(201);
    const answer = await expectRefused(jsonRequest(signupBody({ email: "  OWNER@Example.COM  " })), 409);
    expect(answer.body.error).toContain("already registered");
    expect(await countEntries()).toBe(2); // the setup row and the first owner@example.com
  });

  it("answers 400 with a message per invalid field", async () => {
    const answer = await expectRefused(
      jsonRequest(signupBody({ email: "not-an-email", phone: "12", business_type: "roofing", company_name: "" })),
      400,
    );
    expect(answer.body.fields).toEqual({
      company_name: "Enter your company name.",
      email: "Enter a valid email address, like owner@example.com.",
      phone: "Enter a phone number with 7 to 15 digits.",
      business_type: "Choose your business type.",
    });
  });

  it.each([
    ["not JSON", "{company_name: 'x'"],
    ["empty", ""],
    ["invalid UTF-8", new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ])("answers 400 to a body that is %s", async (_, body) => {
    const answer = await expectRefused(jsonRequest(body), 400);
    expect(answer.body.error).toBe("The request's body must be valid JSON.");
  });

  it.each([
    ["an array", "[]"],
    ["null", "null"],
    ["a number", "42"],
    ["a string", '"hello"'],
  ])("answers 400 to JSON that is %s", async (_, body) => {
    const answer = await expectRefused(jsonRequest(body), 400);
    expect(answer.body.error).toBe("The request's body must be a JSON object.");
  });

  it.each([null, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp"])(
    "answers 415 to the content type %s",
    async (contentType) => {
      const headers = new Headers();
      if (contentType) headers.set("content-type", contentType);
      const request = new Request(ENDPOINT_URL, { method: "POST", headers, body: JSON.stringify(signupBody()) });
      if (!contentType) request.headers.delete("content-type");
      await expectRefused(request, 415);
    },
  );

  it("answers 413 to a body over 16 KiB, declared or streamed", async () => {
    const huge = JSON.stringify(signupBody({ notes: "n".repeat(16 * 1024) }));
    await expectRefused(jsonRequest(huge), 413);

    const bytes = new TextEncoder().encode(huge);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 1000) controller.enqueue(bytes.slice(i, i + 1000));
        controller.close();
      },
    });
    const undeclared = new Request(ENDPOINT_URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(undeclared.headers.get("content-length")).toBeNull();
    await expectRefused(undeclared, 413);
  });

  it("accepts a body of exactly 16 KiB", async () => {
    const base = JSON.stringify(signupBody({ notes: "" }));
    const body = base.replace('"notes":""', `"notes":"${" ".repeat(16 * 1024 - base.length)}"`);
    expect(Buffer.byteLength(body)).toBe(16 * 1024);
    expect((await post(jsonRequest(body))).status).toBe(201);
  });

  it.each(["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"] as const)("answers %s with 405 and an Allow header", async (method) => {
    const before = await countEntries();
    const response = await route[method]();
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await response.json()).toEqual({
      error: "This address does not take that method. Use POST to join the waitlist.",
      code: "method_not_allowed",
    });
    expect(await countEntries()).toBe(before);
  });

  it("stores exactly one row when 50 sign-ups with one email arrive at once", async () => {
    const variants = ["dup@example.com", "DUP@example.com", " dup@Example.com", "Dup@Example.Com  "];
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post(jsonRequest(signupBody({ email: variants[i % variants.length] })))),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    expect((await storedEntries()).map((row) => row.email_normalized)).toEqual(["dup@example.com"]);
    expect(await countEntries()).toBe(1);
  });

  it("stores all of 200 distinct sign-ups arriving at once", async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => post(jsonRequest(signupBody({ email: `crew${i}@example.com` })))),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(200).fill(201));
    expect(await countEntries()).toBe(200);
  });
});
