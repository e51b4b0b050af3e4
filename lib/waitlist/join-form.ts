/**
 * The join page's form (/join), which works with no script at all: an ordinary form post, counted
 * against the client's rate limit and then handed to the same signUp() as the dialog's JSON
 * (./sign-up.ts), whose refusal becomes the page's next state: the spec's messages, each field's
 * error, every value as typed, and a question to answer.
 */
import "server-only";
import { issueChallenge, liveQuestion } from "./challenge-token";
import { VISITOR_MESSAGES } from "./messages";
import { fieldErrorsOf, HONEYPOT_FIELD, SOURCE_FIELDS, waitlistSignupSchema, type FieldErrors, type SignupSource } from "./schema";
import { refusalOf, type ServerChallenge } from "./submit";
import { signUp, type SignUpServices } from "./sign-up";
import { ApiError, asRefusal, REQUEST_ID_HEADER } from "../http";
import { isForeignOrigin } from "../security/origin";
import { countFormPost, type FormPostServices } from "../security/rate-limit";
import { JOIN_PATH } from "../content/paths";
import { campaignIn, sourceOf } from "./source";
import { NEW_QUESTION_INTENT, type JoinFormState, type JoinValues } from "./join-state";

/** What the join form posts besides the question and the honeypot: the sign-up's fields, its source included. */
const JOIN_FIELDS = Object.keys(waitlistSignupSchema.shape) as (keyof JoinValues)[];

type JoinContext = {
  /** The post's own headers: its client address and request id. */
  headers: Headers;
  services: SignUpServices & FormPostServices;
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

/** One post of the join form: the page's next state. Nothing is stored unless signUp() stores it. */
export async function joinByForm(form: FormData, { headers, services }: JoinContext): Promise<JoinFormState> {
  const { secret } = services;
  const now = services.now();
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

  try {
    // Past it (wall clock), a post still waiting for its turn to be written is refused, unwritten.
    const deadline = Date.now() + services.deadlineMs;
    await countFormPost(headers, services, deadline);
    // Next and the front door refuse another site's post to a Server Action; this does not depend on them.
    if (isForeignOrigin({ url: `http://${headers.get("host") ?? "localhost"}${JOIN_PATH}`, headers }, services.siteOrigin))
      throw new ApiError("foreign_origin");
    const data = { ...values, challenge_token: token, challenge_answer: answer, [HONEYPOT_FIELD]: text(HONEYPOT_FIELD) };
    await signUp({ data, deadline, requestId: headers.get(REQUEST_ID_HEADER) ?? undefined }, services);
    return {
      outcome: "joined",
      joined: { contact_name: values.contact_name.trim(), company_name: values.company_name.trim(), email: values.email.trim() },
    };
  } catch (error) {
    const refusal = asRefusal(error, "join form post", headers.get(REQUEST_ID_HEADER) ?? undefined);
    // signUp stops at the first check that fails; the page shows every field's problem at once.
    const parsed = waitlistSignupSchema.safeParse(values);
    const errors: FieldErrors = { ...(parsed.success ? {} : fieldErrorsOf(parsed.error)) };
    if (refusal.code === "challenge_wrong_answer") {
      // The spec's message for a wrong answer, and a new question to answer (the old one is not asked twice).
      return {
        outcome: "form",
        values,
        errors,
        answerError: VISITOR_MESSAGES.wrongAnswer,
        question: questionFor(secret, now, token, true),
      };
    }
    const shown = refusalOf(refusal.status, { error: refusal.message, code: refusal.code, ...refusal.options.extra });
    const fieldsOnly = refusal.code === "invalid_fields";
    return {
      outcome: "form",
      values,
      errors: { ...errors, ...shown.fields },
      // Field errors speak for themselves beside each field; every other refusal is the spec's message.
      message: fieldsOnly ? undefined : shown.message,
      question: questionFor(secret, now, token, !!shown.newQuestion),
      keepAnswer: fieldsOnly ? answer : undefined,
    };
  }
}
