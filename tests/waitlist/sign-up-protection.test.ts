/**
 * Each bot and abuse layer of POST /api/waitlist (docs/security.md), through
 * the real handler and a real SQLite file. The handler is built with its own
 * settings and a clock the tests move, instead of the environment's.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureLog } from "@/lib/log";
import { createChallenge, solve } from "@/lib/waitlist/challenge";
import { CHALLENGE_TTL_MS, issueChallenge } from "@/lib/waitlist/challenge-token";
import { challengeEndpoint, signUpEndpoint, type SignUpOptions } from "../support/sign-up";
import { CLIENT_ADDRESS_HEADER } from "@/lib/security/client-address";
import { SharedRateLimiter } from "@/lib/security/rate-limit";
import { countEntries, setUpTestDatabase, storedEntries } from "../support/database";
import { solvedChallenge } from "../support/challenge";
import { answerOf, jsonRequest, validSignup } from "../support/requests";

setUpTestDatabase();

const SECRET = "protection-test-secret-0123456789abcdef";
const START = Date.parse("2026-11-22T09:00:00Z");

let clock: number;
let captured: ReturnType<typeof captureLog>;

beforeEach(() => {
  clock = START;
  captured = captureLog();
});
afterEach(() => captured.stop());

function handler(overrides: Partial<SignUpOptions> = {}) {
  return signUpEndpoint({
    secret: SECRET,
    minSubmitMs: 0,
    siteUrl: "https://fieldcrew.example",
    limiter: new SharedRateLimiter({ max: 1_000, windowMs: 600_000 }),
    now: () => clock,
    ...overrides,
  });
}

/** A sign-up body answering a question issued at the current clock time. */
function body(overrides: Record<string, unknown> = {}) {
  const { challenge_token, challenge_answer } = solvedChallenge({ secret: SECRET, now: clock });
  return { ...validSignup(), challenge_token, challenge_answer, ...overrides };
}

function fromClient(address: string, payload: unknown, headers: Record<string, string> = {}) {
  return jsonRequest(payload, { headers: { "content-type": "application/json", [CLIENT_ADDRESS_HEADER]: address, ...headers } });
}

/** Posts, and proves that nothing was stored. */
async function expectNothingStored(post: (request: Request) => Promise<Response>, request: Request) {
  const before = await countEntries();
  const answer = await answerOf(await post(request));
  expect(await countEntries()).toBe(before);
  return answer;
}

describe("the security question", () => {
  it("is issued with a token and an expiry, and a fresh one answers correctly", async () => {
    const issue = challengeEndpoint({ secret: SECRET, now: () => clock });
    const response = issue(new Request("http://localhost/api/waitlist/challenge"));
    expect(response.headers.get("cache-control")).toBe("no-store");
    const issued = (await response.json()) as ReturnType<typeof issueChallenge>;
    expect(issued.expires_at).toBe(new Date(START + CHALLENGE_TTL_MS).toISOString());

    const post = handler();
    const answer = await answerOf(
      await post(jsonRequest({ ...validSignup(), challenge_token: issued.token, challenge_answer: String(solve(issued.challenge)) })),
    );
    expect(answer).toEqual({ status: 201, body: { ok: true } });
    // The question's id (a UUID v7, lib/ordered-id.ts) is stored as the entry's challenge_id.
    expect((await storedEntries())[0]!.challenge_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it.each([
    ["missing", { challenge_token: undefined }],
    ["not a string", { challenge_token: 12345 }],
    ["made up", { challenge_token: "eyJpZCI6ImFiYyJ9.c2lnbmF0dXJl" }],
    ["too long", { challenge_token: "a".repeat(5_000) + ".b" }],
  ])("refuses a token that is %s with 400 challenge_invalid", async (_, override) => {
    const post = handler();
    const answer = await expectNothingStored(post, jsonRequest(body(override)));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: "challenge_invalid", error: expect.stringContaining("security question") });
  });

  it("refuses a token signed with another secret, or with a changed question, as forged", async () => {
    const post = handler();
    const other = solvedChallenge({ secret: "another-secret-another-secret-another", now: clock });
    expect((await expectNothingStored(post, jsonRequest(body(other)))).body.code).toBe("challenge_invalid");

    // Change the question inside a real token to one whose answer is known, keep the signature.
    const { challenge_token } = solvedChallenge({ secret: SECRET, now: clock });
    const [payload, signature] = challenge_token.split(".");
    const edited = { ...JSON.parse(Buffer.from(payload!, "base64url").toString()), left: 1, right: 1, operator: "+" };
    const tampered = `${Buffer.from(JSON.stringify(edited)).toString("base64url")}.${signature}`;
    const answer = await expectNothingStored(post, jsonRequest(body({ challenge_token: tampered, challenge_answer: "2" })));
    expect(answer.body.code).toBe("challenge_invalid");
  });

  it("refuses a token after its 30 minutes with 400 challenge_expired, and accepts it just before", async () => {
    const post = handler();
    const fresh = body();
    const stale = body();
    clock = START + CHALLENGE_TTL_MS - 1;
    expect((await post(jsonRequest(fresh))).status).toBe(201);
    clock = START + CHALLENGE_TTL_MS;
    const answer = await expectNothingStored(post, jsonRequest(stale));
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("challenge_expired");
  });

  it("refuses a wrong answer with 400 challenge_wrong_answer", async () => {
    const post = handler();
    const issued = issueChallenge(SECRET, clock);
    for (const wrong of [String(solve(issued.challenge) + 1), "", "seven", null, { value: 1 }]) {
      const answer = await expectNothingStored(
        post,
        jsonRequest({ ...validSignup(), challenge_token: issued.token, challenge_answer: wrong }),
      );
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe("challenge_wrong_answer");
    }
  });

  it("accepts the answer as a number or with spaces around it", async () => {
    const post = handler();
    const issued = issueChallenge(SECRET, clock);
    const answer = await post(jsonRequest({ ...validSignup(), challenge_token: issued.token, challenge_answer: solve(issued.challenge) }));
    expect(answer.status).toBe(201);
    const spaced = issueChallenge(SECRET, clock);
    const second = await post(
      jsonRequest({ ...validSignup(), challenge_token: spaced.token, challenge_answer: ` ${solve(spaced.challenge)} ` }),
    );
    expect(second.status).toBe(201);
  });

  it("admits one sign-up per token: a reuse gets 400 challenge_used, also when 20 race", async () => {
    const post = handler();
    const { challenge_token, challenge_answer } = solvedChallenge({ secret: SECRET, now: clock });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(jsonRequest({ ...validSignup({ email: `racer${i}@example.com` }), challenge_token, challenge_answer })),
      ),
    );
    const answers = await Promise.all(responses.map(answerOf));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused).toHaveLength(19);
    for (const answer of refused) expect(answer).toMatchObject({ status: 400, body: { code: "challenge_used" } });
    expect(await countEntries()).toBe(1);
  });

  it("leaves a token usable after a refusal before the store (a field error)", async () => {
    const post = handler();
    const { challenge_token, challenge_answer } = solvedChallenge({ secret: SECRET, now: clock });
    const retry = { challenge_token, challenge_answer };
    expect((await post(jsonRequest({ ...validSignup({ phone: "12" }), ...retry }))).status).toBe(400);
    expect((await post(jsonRequest({ ...validSignup({ email: "fixed@example.com" }), ...retry }))).status).toBe(201);
  });

  it("uses up a token with a duplicate like a sign-up: one solved question cannot test address after address", async () => {
    const post = handler();
    expect((await post(jsonRequest(body({ email: "taken@example.com" })))).status).toBe(201);
    const { challenge_token, challenge_answer } = solvedChallenge({ secret: SECRET, now: clock });
    const probe = { challenge_token, challenge_answer };
    expect(await answerOf(await post(jsonRequest({ ...validSignup({ email: "TAKEN@example.com" }), ...probe })))).toMatchObject({
      status: 409,
    });
    for (const email of ["taken@example.com", "new@example.com"]) {
      expect(await answerOf(await post(jsonRequest({ ...validSignup({ email }), ...probe })))).toMatchObject({
        status: 400,
        body: { code: "challenge_used" },
      });
    }
    expect(await countEntries()).toBe(1);
  });

  it("gives a different question when asked for another, keeping the visit's start time", () => {
    const first = issueChallenge(SECRET, START);
    for (let i = 1; i <= 50; i += 1) {
      const next = issueChallenge(SECRET, START + i * 1000, first.token);
      expect(next.challenge).not.toEqual(first.challenge);
      const payload = JSON.parse(Buffer.from(next.token.split(".")[0]!, "base64url").toString());
      expect(payload.started).toBe(START);
    }
    // A previous token that is not ours starts the clock afresh.
    const forgedPrevious = issueChallenge("someone-elses-secret-someone-elses", START - 60_000).token;
    const payload = JSON.parse(Buffer.from(issueChallenge(SECRET, START, forgedPrevious).token.split(".")[0]!, "base64url").toString());
    expect(payload.started).toBe(START);
    expect(createChallenge()).toBeTruthy();
  });
});

describe("the honeypot and the minimum time", () => {
  it.each([
    ["text", "https://spam.example"],
    ["a number", 1],
    ["an object", { a: 1 }],
    ["true", true],
  ])("answers a filled-in honeypot (%s) like a success, stores nothing and logs it", async (_, value) => {
    const post = handler();
    const answer = await expectNothingStored(post, jsonRequest(body({ website: value })));
    expect(answer).toEqual({ status: 201, body: { ok: true } });
    expect(captured.text()).toContain("honeypot");
  });

  it("stores a sign-up whose honeypot is empty or absent", async () => {
    const post = handler();
    expect((await post(jsonRequest(body({ website: "" })))).status).toBe(201);
    expect((await post(jsonRequest(body()))).status).toBe(201);
    expect(await countEntries()).toBe(2);
  });

  it("answers a sign-up sent sooner than the minimum time like a success and stores nothing", async () => {
    const post = handler({ minSubmitMs: 3_000 });
    const tooSoon = body();
    const inTime = body();
    clock = START + 2_999;
    const answer = await expectNothingStored(post, jsonRequest(tooSoon));
    expect(answer).toEqual({ status: 201, body: { ok: true } });
    expect(captured.text()).toContain("2999 ms");
    clock = START + 3_000;
    expect((await post(jsonRequest(inTime))).status).toBe(201);
    expect(await countEntries()).toBe(1);
  });

  it("measures the minimum time from the visit's first question, so asking for another does not restart it", async () => {
    const post = handler({ minSubmitMs: 3_000 });
    const first = issueChallenge(SECRET, START);
    const second = issueChallenge(SECRET, START + 2_500, first.token);
    clock = START + 3_000;
    const response = await post(
      jsonRequest({ ...validSignup(), challenge_token: second.token, challenge_answer: String(solve(second.challenge)) }),
    );
    expect(response.status).toBe(201);
    expect(await countEntries()).toBe(1);
  });
});

describe("the rate limit", () => {
  it("allows 5 attempts per address in 10 minutes, then answers 429 with Retry-After, and resets after the window", async () => {
    const post = handler({ limiter: new SharedRateLimiter({ max: 5, windowMs: 600_000 }) });
    // Bad requests count too: probing costs the same as signing up.
    for (let i = 0; i < 4; i += 1) expect((await post(fromClient("203.0.113.7", {}))).status).toBe(400);
    expect((await post(fromClient("203.0.113.7", body()))).status).toBe(201);

    clock = START + 60_000;
    const limited = await post(fromClient("203.0.113.7", body()));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("540");
    expect(await limited.json()).toMatchObject({ code: "rate_limited", error: expect.stringContaining("Too many") });
    expect(await countEntries()).toBe(1);

    // Another address has its own allowance.
    expect((await post(fromClient("198.51.100.4", body()))).status).toBe(201);

    clock = START + 600_000;
    expect((await post(fromClient("203.0.113.7", body()))).status).toBe(201);
    expect(await countEntries()).toBe(3);
  });

  it("is checked before anything else, so a limited client costs no parsing", async () => {
    const post = handler({ limiter: new SharedRateLimiter({ max: 1, windowMs: 600_000 }) });
    await post(fromClient("203.0.113.8", {}));
    const answer = await expectNothingStored(post, fromClient("203.0.113.8", "not even json", { origin: "https://evil.example" }));
    expect(answer.status).toBe(429);
  });
});

describe("cross-site requests", () => {
  it.each(["https://evil.example", "null", "http://fieldcrew.example", "https://fieldcrew.example.evil.example"])(
    "refuses a post whose Origin is %s with 403",
    async (origin) => {
      const post = handler();
      const answer = await expectNothingStored(post, jsonRequest(body(), { headers: { "content-type": "application/json", origin } }));
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe("foreign_origin");
    },
  );

  it("accepts the site's own origin, the origin the request was sent to, and no Origin at all", async () => {
    const post = handler();
    for (const origin of ["https://fieldcrew.example", "http://localhost:3000", undefined]) {
      const headers: Record<string, string> = { "content-type": "application/json", ...(origin ? { origin } : {}) };
      expect((await post(jsonRequest(body(), { headers }))).status).toBe(201);
    }
    const proxied = jsonRequest(body(), {
      headers: {
        "content-type": "application/json",
        origin: "https://www.fieldcrew.example",
        "x-forwarded-host": "www.fieldcrew.example",
        "x-forwarded-proto": "https",
      },
    });
    expect((await post(proxied)).status).toBe(201);
  });
});
