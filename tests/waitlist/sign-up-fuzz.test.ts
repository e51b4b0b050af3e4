/**
 * Generated hostile input against the real handler and a real SQLite file.
 * Malformed bodies (wrong types, huge strings, unicode, nesting, prototype
 * keys, SQL and script fragments, broken bytes) must all get a 4xx JSON answer
 * with an `error` and change nothing; valid but hostile values must be stored
 * exactly as sent.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { signUpEndpoint } from "../support/sign-up";
import { LIMITS } from "@/lib/waitlist/schema";
import { SharedRateLimiter } from "@/lib/security/rate-limit";
import { countEntries, setUpTestDatabase, storedEntries } from "../support/database";
import { solvedChallenge, testSecret } from "../support/challenge";
import { ENDPOINT_URL, validSignup } from "../support/requests";

setUpTestDatabase();

const post = signUpEndpoint({
  secret: testSecret(),
  minSubmitMs: 0,
  siteUrl: "http://localhost:3000",
  limiter: new SharedRateLimiter({ max: Number.MAX_SAFE_INTEGER, windowMs: 60_000 }),
});

const FIELDS = ["company_name", "contact_name", "email", "phone", "business_type", "company_size", "notes"] as const;
const REQUIRED = FIELDS.filter((field) => field !== "notes");

const FRAGMENTS = [
  "'; DROP TABLE waitlist_entries; --",
  '" OR 1=1 --',
  "1); DELETE FROM waitlist_entries; --",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "javascript:alert(1)",
  "{{constructor.constructor('alert(1)')()}}",
  "${process.exit(1)}",
  "\u0000",
  "\u202e",
  "𝕳𝖊𝖑𝖑𝖔 👷‍♀️🔧",
  '=HYPERLINK("http://evil.example")',
];
const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype"];

const hostileString = fc.oneof(
  fc.constantFrom(...FRAGMENTS),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.string({ unit: "binary", maxLength: 50 }),
  fc.string({ minLength: 2_001, maxLength: 9_000 }),
  fc.tuple(fc.constantFrom(...FRAGMENTS), fc.string()).map(([fragment, rest]) => fragment + rest),
);

/** Anything that is not a string: what a required text field must never accept. */
const notAString = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 5 }),
  fc.dictionary(fc.constantFrom(...PROTOTYPE_KEYS, "a", "$where"), hostileString),
  fc.letrec((tie) => ({ nested: fc.oneof({ depthSize: "small" }, fc.constant(1), fc.array(tie("nested"), { maxLength: 3 })) })).nested,
);

const anyValue = fc.oneof(hostileString, notAString);

/**
 * A body built around a correctly answered question, so the field rules are
 * reached; one required field is always broken (wrong type or over its limit),
 * the rest are anything, and prototype keys may be added.
 */
const brokenSignup = fc
  .record({
    broken: fc.constantFrom(...REQUIRED),
    brokenValue: fc.oneof(
      notAString,
      fc.string({ minLength: 255, maxLength: 3_000 }).map((s) => `x${s}@`),
    ),
    others: fc.record(Object.fromEntries(FIELDS.map((field) => [field, fc.oneof(anyValue, fc.constant(undefined))]))),
    extras: fc.dictionary(fc.constantFrom(...PROTOTYPE_KEYS, "id", "created_at", "email_normalized", "challenge_id"), anyValue),
  })
  .map(({ broken, brokenValue, others, extras }) => {
    const body: Record<string, unknown> = { ...validSignup(), ...others, ...solvedChallenge() };
    body[broken] = brokenValue;
    // JSON.stringify writes "__proto__" as an ordinary key, which is how an attacker would send it.
    return JSON.stringify(body).replace(
      /^\{/,
      `{${Object.entries(extras)
        .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v ?? null)},`)
        .join("")}`,
    );
  });

/** Bodies that are not a sign-up at all: any JSON, broken JSON, broken bytes. */
const notASignup = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string({ unit: "binary" }),
  fc.constantFrom("{", "[1,2", '{"a":}', "\u0000", "null", "true", '"__proto__"', "{}"),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => Uint8Array.from([0x7b, 0x22, ...bytes.map((b) => b | 0x80), 0x22, 0x7d])),
  fc
    .record({ __proto__: fc.record({ polluted: fc.constant(true) }) })
    .map(() => '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
);

const ANY_BODY = fc.oneof({ weight: 3, arbitrary: brokenSignup }, { weight: 2, arbitrary: notASignup });

function request(body: string | Uint8Array): Request {
  return new Request(ENDPOINT_URL, { method: "POST", headers: { "content-type": "application/json" }, body: body as BodyInit });
}

describe("fuzzing POST /api/waitlist", () => {
  it("answers 600 generated malformed or hostile bodies with a 4xx JSON error and stores nothing", async () => {
    const statuses = new Map<number, number>();
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(ANY_BODY, async (body) => {
        sent += 1;
        const response = await post(request(body));
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(response.headers.get("content-type")).toMatch(/^application\/json/);
        const answer = (await response.json()) as { error?: unknown; code?: unknown };
        expect(typeof answer.error).toBe("string");
        expect(typeof answer.code).toBe("string");
      }),
      { numRuns: 600 },
    );
    expect(sent).toBeGreaterThanOrEqual(600);
    expect(await countEntries()).toBe(0);
    // Nothing reached Object.prototype.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Both kinds of refusal were reached, not just the first check.
    expect(statuses.get(400)).toBeGreaterThan(100);
    console.log(`fuzz: ${sent} bodies, answers by status: ${JSON.stringify(Object.fromEntries(statuses))}`);
  });

  it("stores valid but hostile values exactly as sent", async () => {
    // Text a person could type: no surrounding spaces (the schema trims those), within the limits.
    const text = (max: number) =>
      fc
        .oneof(
          fc.constantFrom(...FRAGMENTS.filter((f) => f.trim() === f && f.length > 1 && !f.includes("\u0000"))),
          fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }),
        )
        .filter((value) => value.trim() === value && value.length > 0 && value.length <= max);
    let stored = 0;
    await fc.assert(
      fc.asyncProperty(text(LIMITS.name), text(LIMITS.name), text(LIMITS.notes), async (company, contact, notes) => {
        const body = { ...validSignup({ company_name: company, contact_name: contact, notes }), ...solvedChallenge() };
        const response = await post(request(JSON.stringify(body)));
        expect(response.status).toBe(201);
        const row = (await storedEntries()).find((entry) => entry.email === body.email);
        expect(row).toMatchObject({ company_name: company, contact_name: contact, notes });
        stored += 1;
      }),
      { numRuns: 150 },
    );
    expect(await countEntries()).toBe(stored);
  });
});
