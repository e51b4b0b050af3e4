/**
 * The join page's form post (lib/waitlist/join-form.ts), as its Server Action makes it:
 * form fields and the post's own headers, answered by the real sign-up handler on a real
 * SQLite file. Every protection holds, a refused post stores nothing, and the page comes
 * back with the spec's messages, the values as typed and a question to answer.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PRIVACY_NOTICE_VERSION } from "@/lib/content/privacy";
import { captureLog } from "@/lib/log";
import { solve } from "@/lib/waitlist/challenge";
import { issueChallenge } from "@/lib/waitlist/challenge-token";
import { signUpServices, type SignUpOptions } from "../support/sign-up";
import { firstJoinState, joinByForm, joinSource } from "@/lib/waitlist/join-form";
import { NEW_QUESTION_INTENT, type JoinFormState } from "@/lib/waitlist/join-state";
import { VISITOR_MESSAGES } from "@/lib/waitlist/messages";
import { CLIENT_ADDRESS_HEADER } from "@/lib/security/client-address";
import { SharedRateLimiter } from "@/lib/security/rate-limit";
import { isForeignPagePost, ownOrigins } from "@/lib/security/origin";
import { countEntries, setUpTestDatabase, storedEntries } from "../support/database";
import { validSignup } from "../support/requests";

setUpTestDatabase();

const SECRET = "join-form-test-secret-0123456789abcdef";
const SITE = "https://fieldcrew.example";
const START = Date.parse("2026-11-24T09:00:00Z");
const OURS: ReadonlySet<string> = new Set([SITE]);

let clock: number;
let captured: ReturnType<typeof captureLog>;
beforeEach(() => {
  clock = START;
  captured = captureLog();
});
afterEach(() => captured.stop());

function handler(overrides: Partial<SignUpOptions> = {}) {
  return signUpServices({
    secret: SECRET,
    minSubmitMs: 3_000,
    siteUrl: SITE,
    limiter: new SharedRateLimiter({ max: 1_000, windowMs: 600_000 }),
    now: () => clock,
    ...overrides,
  });
}

/** The form as the browser posts it: every field as text, the question's token, the answer and the empty honeypot. */
function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

/** A question shown now, answered a few seconds later (a person's pace) unless told otherwise. */
function filledForm(overrides: Record<string, string> = {}, answer?: (right: string) => string) {
  const issued = issueChallenge(SECRET, clock);
  clock += 5_000;
  const right = String(solve(issued.challenge));
  const signup = Object.fromEntries(Object.entries(validSignup()).map(([name, value]) => [name, value ?? ""]));
  return form({
    ...signup,
    source_page: "/about",
    website: "",
    challenge_token: issued.token,
    challenge_answer: answer ? answer(right) : right,
    ...overrides,
  });
}

function headers(extra: Record<string, string> = {}): Headers {
  return new Headers({ host: "fieldcrew.example", origin: SITE, [CLIENT_ADDRESS_HEADER]: "203.0.113.7", ...extra });
}

function post(data: FormData, options: { headers?: Headers; handle?: ReturnType<typeof handler> } = {}) {
  return joinByForm(data, { headers: options.headers ?? headers(), services: options.handle ?? handler() });
}

function asForm(state: JoinFormState) {
  if (state.outcome !== "form") throw new Error(`expected the form back, got ${state.outcome}`);
  return state;
}

describe("the join form's post", () => {
  it("stores a sign-up with its source and the privacy notice version, and answers with the success view", async () => {
    const state = await post(filledForm({ email: "Owner@Summit.example" }));
    expect(state).toEqual({
      outcome: "joined",
      joined: { contact_name: validSignup().contact_name, company_name: validSignup().company_name, email: "Owner@Summit.example" },
    });
    const [row] = await storedEntries();
    expect(row).toMatchObject({ email: "Owner@Summit.example", source_page: "/about", notice_version: PRIVACY_NOTICE_VERSION });
  });

  it("after a wrong answer: the spec's message, every value kept, a new question, and nothing stored", async () => {
    const data = filledForm({ phone: "" }, (right) => String(Number(right) + 1));
    const postedToken = data.get("challenge_token");
    const state = asForm(await post(data));
    expect(state.answerError).toBe(VISITOR_MESSAGES.wrongAnswer);
    // The fields' own problems are shown at the same time, not one post later.
    expect(state.errors).toEqual({ phone: "Enter your phone number." });
    expect(state.values).toMatchObject({
      company_name: validSignup().company_name,
      email: data.get("email"),
      phone: "",
      source_page: "/about",
    });
    expect(state.question.token).not.toBe(postedToken);
    expect(state.keepAnswer).toBeUndefined();
    expect(await countEntries()).toBe(0);
  });

  it("with a missing field: that field's error, the same question with its answer kept, nothing stored", async () => {
    const data = filledForm({ company_name: "  " });
    const state = asForm(await post(data));
    expect(state.errors).toEqual({ company_name: "Enter your company name." });
    expect(state.message).toBeUndefined();
    expect(state.question.token).toBe(data.get("challenge_token"));
    expect(state.keepAnswer).toBe(data.get("challenge_answer"));
    expect(await countEntries()).toBe(0);
  });

  it("for an address already on the list: the spec's duplicate message, a new question, still one entry", async () => {
    await post(filledForm({ email: "owner@summit.example" }));
    const state = asForm(await post(filledForm({ email: "Owner+again@Summit.example" })));
    expect(state.message).toBe(VISITOR_MESSAGES.alreadyOnList);
    expect(state.values.email).toBe("Owner+again@Summit.example");
    expect(await countEntries()).toBe(1);
  });

  it("refuses a post from another site's page, storing nothing", async () => {
    const state = asForm(await post(filledForm(), { headers: headers({ origin: "https://evil.example" }) }));
    expect(state.message).toBe(VISITOR_MESSAGES.generic);
    expect(await countEntries()).toBe(0);
  });

  it("shares the rate limit: past it, the spec's generic message and nothing stored", async () => {
    const handle = handler({ limiter: new SharedRateLimiter({ max: 2, windowMs: 600_000 }) });
    for (let i = 0; i < 2; i += 1) await post(filledForm({ email: `owner${i}@limit.example` }), { handle });
    const state = asForm(await post(filledForm({ email: "third@limit.example" }), { handle }));
    expect(state.message).toBe(VISITOR_MESSAGES.generic);
    expect(await countEntries()).toBe(2);
  });

  it("answers a filled honeypot or a post faster than a person like a sign-up, and stores neither", async () => {
    expect((await post(filledForm({ website: "https://spam.example" }))).outcome).toBe("joined");
    const fast = filledForm();
    // A question shown this very moment, answered at once: no person is that quick.
    const issued = issueChallenge(SECRET, clock);
    fast.set("challenge_token", issued.token);
    fast.set("challenge_answer", String(solve(issued.challenge)));
    expect((await post(fast)).outcome).toBe("joined");
    expect(await countEntries()).toBe(0);
  });

  it("refuses a question that was not ours, with a new one to answer", async () => {
    const state = asForm(await post(filledForm({ challenge_token: "made.up" })));
    expect(state.message).toBe(VISITOR_MESSAGES.newQuestion);
    expect(state.question.token).not.toBe("made.up");
    expect(await countEntries()).toBe(0);
  });

  it('"New question" sends nothing: the same values back with a different question', async () => {
    const data = filledForm({ intent: NEW_QUESTION_INTENT });
    const state = asForm(await post(data));
    expect(state.question.token).not.toBe(data.get("challenge_token"));
    expect(state.values.company_name).toBe(validSignup().company_name);
    expect(state.errors).toEqual({});
    expect(await countEntries()).toBe(0);
  });

  it("reads only text: a file in a field is no value", async () => {
    const data = filledForm();
    data.set("company_name", new Blob(["Acme"]), "company.txt");
    const state = asForm(await post(data));
    expect(state.errors.company_name).toBe("Enter your company name.");
    expect(await countEntries()).toBe(0);
  });
});

describe("the join page's first state", () => {
  it("starts empty with a question, the referring page of ours as the source, and the campaign", () => {
    const state = asForm(firstJoinState(SECRET, clock, joinSource(`${SITE}/careers?utm_source=news`, new URLSearchParams(), OURS)));
    expect(state.values).toMatchObject({ company_name: "", email: "", source_page: "/careers", utm_source: "news", utm_medium: "" });
    expect(state.question.token).toMatch(/\./);
  });

  it("names the join page itself for a visit from elsewhere, and prefers the join page's own campaign", () => {
    expect(joinSource("https://elsewhere.example/careers", new URLSearchParams("utm_campaign=spring"), OURS)).toEqual({
      source_page: "/join",
      utm_source: null,
      utm_medium: null,
      utm_campaign: "spring",
    });
    expect(joinSource(null, new URLSearchParams(), OURS).source_page).toBe("/join");
    expect(joinSource("not a url", new URLSearchParams(), OURS).source_page).toBe("/join");
  });

  it("knows our pages by SITE_URL and by the address the request came in on (a port or proxy SITE_URL does not name)", () => {
    const request = { url: "http://localhost:3400/join", headers: new Headers({ host: "localhost:3400" }) };
    const ours = ownOrigins(request, SITE);
    expect(joinSource("http://localhost:3400/careers", new URLSearchParams(), ours).source_page).toBe("/careers");
    expect(joinSource(`${SITE}/about`, new URLSearchParams(), ours).source_page).toBe("/about");
    expect(joinSource("http://localhost:3000/about", new URLSearchParams(), ours).source_page).toBe("/join");
  });
});

describe("a form posted to a page from another site (server.ts)", () => {
  const post = (origin: string | undefined, path = "/join") =>
    isForeignPagePost("POST", path, { host: "fieldcrew.example", ...(origin ? { origin } : {}) }, SITE);

  it("is refused from a foreign origin, let through from our own or without one", () => {
    expect(post("https://evil.example")).toBe(true);
    expect(post(SITE)).toBe(false);
    expect(post(undefined)).toBe(false);
  });

  it("leaves the API's routes and other methods to their own checks", () => {
    expect(post("https://evil.example", "/api/waitlist")).toBe(false);
    expect(isForeignPagePost("GET", "/join", { host: "fieldcrew.example", origin: "https://evil.example" }, SITE)).toBe(false);
  });
});
