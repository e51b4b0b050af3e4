/**
 * The join page's form (/join), which works with no script at all: an ordinary
 * form post, read here and answered by the same sign-up handler as the dialog's
 * JSON (handler.ts: rate limit, origin, honeypot, question, minimum time, fields,
 * email domain, store), whose answer becomes the page's next state: the spec's
 * messages, each field's error, every value as typed, and a question to answer.
 */
import "server-only";
import { issueChallenge, liveQuestion } from "./challenge-token";
import { VISITOR_MESSAGES } from "./messages";
import { fieldErrorsOf, HONEYPOT_FIELD, SOURCE_FIELDS, waitlistSignupSchema, type FieldErrors, type SignupSource } from "./schema";
import { refusalOf, WAITLIST_ENDPOINT, type ServerChallenge } from "./submit";
import type { SignupHandler } from "./handler";
import { JOIN_PATH } from "../content/paths";
import { campaignIn, sourceOf } from "./source";
import { NEW_QUESTION_INTENT, type JoinFormState, type JoinValues } from "./join-state";

/** What the join form posts besides the question and the honeypot: the sign-up's fields, its source included. */
const JOIN_FIELDS = Object.keys(waitlistSignupSchema.shape) as (keyof JoinValues)[];

type JoinContext = {
  /** The post's own headers: its origin, client address and request id go through to the handler. */
  headers: Headers;
  handleSignup: SignupHandler;
  secret: string;
  now: number;
  afterResponse?: (work: () => void) => void;
};

/**
 * Where a sign-up on the join page came from: the page of ours whose link led here (the
 * Referer, which our Referrer-Policy keeps whole within the site), or the join page itself;
 * and the campaign of the join page's own address, or else of that page's. (The dialog
 * remembers the campaign of the visit's landing page; without a script there is no memory.)
 */
export function joinSource(referer: string | null, search: URLSearchParams, ownOrigins: ReadonlySet<string>): SignupSource {
  let from: URL | undefined;
  try {
    from = referer ? new URL(referer) : undefined;
  } catch {
    from = undefined;
  }
  const ours = from && ownOrigins.has(from.origin.toLowerCase()) ? from : undefined;
  const campaign = campaignIn(search);
  const page = ours && ours.pathname !== JOIN_PATH ? ours.pathname : JOIN_PATH;
  return sourceOf(page, Object.keys(campaign).length > 0 ? campaign : campaignIn(ours?.searchParams ?? search));
}

/** The form as first shown: empty, with a new question whose clock starts now. */
export function firstJoinState(secret: string, now: number, source: SignupSource): JoinFormState {
  const blank = Object.fromEntries(JOIN_FIELDS.map((name) => [name, ""])) as JoinValues;
  return { outcome: "form", values: { ...blank, ...sourceValues(source) }, errors: {}, question: serverQuestion(secret, now, null) };
}

/** The source fields as the form carries them: text, empty for none. */
function sourceValues(source: SignupSource): Partial<JoinValues> {
  return Object.fromEntries(SOURCE_FIELDS.map((name) => [name, source[name] ?? ""]));
}

function serverQuestion(secret: string, now: number, previousToken: string | null): ServerChallenge {
  const { challenge, token } = issueChallenge(secret, now, previousToken);
  return { challenge, token };
}

/**
 * The posted question again while it is ours and answerable (unless a `fresh` one is due), else
 * a new one, which keeps the visit's start time when the old token was ours.
 */
function questionFor(secret: string, now: number, token: string, fresh: boolean): ServerChallenge {
  const challenge = fresh ? undefined : liveQuestion(secret, token, now);
  return challenge ? { challenge, token } : serverQuestion(secret, now, token || null);
}

/** The sign-up the dialog would send, as the handler's input: a JSON post with this post's headers. */
function asSignupRequest(values: JoinValues, answer: string, token: string, honeypot: string, headers: Headers): Request {
  const forwarded = new Headers(headers);
  for (const name of ["content-length", "content-type", "transfer-encoding", "next-action", "next-router-state-tree"])
    forwarded.delete(name);
  forwarded.set("content-type", "application/json");
  const host = headers.get("host") ?? "localhost";
  const body = { ...values, challenge_token: token, challenge_answer: answer, [HONEYPOT_FIELD]: honeypot };
  return new Request(new URL(WAITLIST_ENDPOINT, `http://${host}`), { method: "POST", headers: forwarded, body: JSON.stringify(body) });
}

/** One post of the join form: the page's next state. Nothing is stored unless the handler stores it. */
export async function joinByForm(form: FormData, context: JoinContext): Promise<JoinFormState> {
  const { secret, now } = context;
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const token = text("challenge_token");
  const answer = text("challenge_answer").trim();
  // Text values only (a file in a field is no value), every field present.
  const values = Object.fromEntries(JOIN_FIELDS.map((name) => [name, text(name)])) as JoinValues;

  // "New question": the same form back with another question; nothing is sent.
  if (form.get("intent") === NEW_QUESTION_INTENT) {
    return { outcome: "form", values, errors: {}, question: questionFor(secret, now, token, true) };
  }

  const request = asSignupRequest(values, answer, token, text(HONEYPOT_FIELD), context.headers);
  const response = await context.handleSignup(request, context.afterResponse);
  if (response.ok) {
    return {
      outcome: "joined",
      joined: { contact_name: values.contact_name.trim(), company_name: values.company_name.trim(), email: values.email.trim() },
    };
  }

  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  // The handler stops at the first check that fails; the page shows every field's problem at once.
  const parsed = waitlistSignupSchema.safeParse(values);
  const errors: FieldErrors = { ...(parsed.success ? {} : fieldErrorsOf(parsed.error)) };
  if (body.code === "challenge_wrong_answer") {
    // The spec's message for a wrong answer, and a new question to answer (the old one is not asked twice).
    return { outcome: "form", values, errors, answerError: VISITOR_MESSAGES.wrongAnswer, question: questionFor(secret, now, token, true) };
  }
  const refusal = refusalOf(response.status, body);
  const fieldsOnly = body.code === "invalid_fields";
  return {
    outcome: "form",
    values,
    errors: { ...errors, ...refusal.fields },
    // Field errors speak for themselves beside each field; every other refusal is the spec's message.
    message: fieldsOnly ? undefined : refusal.message,
    question: questionFor(secret, now, token, !!refusal.newQuestion),
    keepAnswer: fieldsOnly ? answer : undefined,
  };
}
