/**
 * The browser's calls (lib/waitlist/submit.ts) against the real route handlers
 * and a real SQLite file: each answer becomes the spec's catalogue message
 * (section 8), and a refused question asks for a new one.
 */
import { describe, expect, it } from "vitest";
import * as challengeRoute from "@/app/api/waitlist/challenge/route";
import * as signupRoute from "@/app/api/waitlist/route";
import { solve } from "@/lib/waitlist/challenge";
import { waitlistSignupSchema, type SignupRequestBody } from "@/lib/waitlist/schema";
import { VISITOR_MESSAGES } from "@/lib/waitlist/messages";
import { fetchChallenge, submitSignup } from "@/lib/waitlist/submit";
import { setUpTestDatabase } from "../support/database";
import { validSignup } from "../support/requests";

setUpTestDatabase();

/** fetch, answered by the app's own route handlers instead of the network. */
const throughRoutes: typeof fetch = async (input, init) => {
  const request = new Request(new URL(String(input), "http://localhost:3000"), init);
  const route = new URL(request.url).pathname === "/api/waitlist/challenge" ? challengeRoute : signupRoute;
  return request.method === "GET" ? route.GET(request) : route.POST(request);
};

const GENERIC = "Something went wrong. Please try again or contact us directly.";

/** A sign-up answered the way the dialog answers it: question from the server, solved. */
async function answeredSignup(overrides: Parameters<typeof validSignup>[0] = {}): Promise<SignupRequestBody> {
  const issued = await fetchChallenge(null, throughRoutes);
  if (!issued) throw new Error("no question");
  return {
    ...waitlistSignupSchema.parse(validSignup(overrides)),
    challenge_token: issued.token,
    challenge_answer: String(solve(issued.challenge)),
    website: "",
  };
}

describe("fetchChallenge", () => {
  it("gets a question and a token, and a different question when given the last token", async () => {
    const first = await fetchChallenge(null, throughRoutes);
    expect(first?.challenge).toMatchObject({ operator: expect.stringMatching(/^[+\-×]$/) });
    const second = await fetchChallenge(first!.token, throughRoutes);
    expect(second!.token).not.toBe(first!.token);
    expect(second!.challenge).not.toEqual(first!.challenge);
  });

  it("gives null when the server cannot be reached or answers with an error", async () => {
    expect(await fetchChallenge(null, () => Promise.reject(new TypeError("Failed to fetch")))).toBeNull();
    expect(await fetchChallenge(null, async () => new Response("<html>502</html>", { status: 502 }))).toBeNull();
  });
});

describe("submitSignup", () => {
  it("reports success, then the already-on-the-list message for the same email, with a new question for the next try", async () => {
    expect(await submitSignup(await answeredSignup({ email: "twice@example.com" }), throughRoutes)).toEqual({ ok: true });
    expect(await submitSignup(await answeredSignup({ email: "TWICE@example.com" }), throughRoutes)).toEqual({
      ok: false,
      message: "This email is already on our waitlist. We'll be in touch soon!",
      newQuestion: { focusAnswer: false },
    });
  });

  it("shows the generic message, with the server's field errors, for an invalid sign-up", async () => {
    const body = { ...(await answeredSignup()), phone: "12" };
    expect(await submitSignup(body, throughRoutes)).toEqual({
      ok: false,
      message: GENERIC,
      fields: { phone: "Enter a phone number with 7 to 15 digits." },
    });
  });

  it("asks for a new question when the token was already used or was not issued by the site", async () => {
    const first = await answeredSignup();
    expect(await submitSignup(first, throughRoutes)).toEqual({ ok: true });
    const reused = { ...(await answeredSignup()), challenge_token: first.challenge_token, challenge_answer: first.challenge_answer };
    const forged = { ...(await answeredSignup()), challenge_token: "made.up" };
    for (const body of [reused, forged]) {
      expect(await submitSignup(body, throughRoutes)).toEqual({
        ok: false,
        message: "That security question expired. Please answer the new one.",
        newQuestion: { focusAnswer: true },
      });
    }
  });

  it("shows the generic message when the network fails, the answer is not JSON, or the rate limit answers", async () => {
    const body = await answeredSignup();
    const offline: typeof fetch = () => Promise.reject(new TypeError("Failed to fetch"));
    const proxyPage: typeof fetch = async () => new Response("<html>Bad gateway</html>", { status: 502 });
    const limited: typeof fetch = async () => Response.json({ error: "Too many sign-up attempts", code: "rate_limited" }, { status: 429 });
    for (const failing of [offline, proxyPage, limited]) {
      expect(await submitSignup(body, failing)).toEqual({ ok: false, message: GENERIC });
    }
  });

  it("asks to try again in a moment when the server answers 503 (nothing was stored; the form stays as it is)", async () => {
    const body = await answeredSignup();
    for (const code of ["temporarily_unavailable", "overloaded"]) {
      const busy: typeof fetch = async () => Response.json({ error: "…", code }, { status: 503, headers: { "Retry-After": "5" } });
      const result = await submitSignup(body, busy);
      expect(result).toEqual({ ok: false, message: VISITOR_MESSAGES.busy });
      expect(VISITOR_MESSAGES.busy).toContain("try again in a moment");
    }
    // The server's own plain-text 503 (too many requests in flight) reads the same way.
    const shed: typeof fetch = async () => new Response("The site is very busy right now.", { status: 503 });
    expect(await submitSignup(body, shed)).toEqual({ ok: false, message: VISITOR_MESSAGES.busy });
  });
});
