/**
 * The browser's two calls: a security question from the server, and the
 * sign-up (spec section 7), with how each answer becomes a message from the
 * catalogue (spec section 8).
 */
import type { Challenge } from "./challenge";
import type { ErrorCode } from "../http";
import { DUPLICATE_MARKER, NEW_QUESTION_CODES, VISITOR_MESSAGES } from "./messages";
import type { FieldErrors, SignupRequestBody } from "./schema";

const WAITLIST_ENDPOINT = "/api/waitlist";
const CHALLENGE_ENDPOINT = "/api/waitlist/challenge";

export type ServerChallenge = { challenge: Challenge; token: string };

type SubmitResult =
  | { ok: true }
  | {
      ok: false;
      message: string;
      fields?: FieldErrors;
      /**
       * The question was used up (or never valid): the form gets a new one before the next
       * try. `focusAnswer`: answering it is what the visitor must do next.
       */
      newQuestion?: { focusAnswer: boolean };
    };

async function jsonOf(response: Response): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await response.json();
    return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A new question from the server, or null when it cannot be reached. Passing
 * the visit's previous token gets a different question and keeps the time the
 * visit's first question was shown.
 */
export async function fetchChallenge(previousToken: string | null, fetchImpl: typeof fetch = fetch): Promise<ServerChallenge | null> {
  const url = previousToken ? `${CHALLENGE_ENDPOINT}?previous=${encodeURIComponent(previousToken)}` : CHALLENGE_ENDPOINT;
  try {
    const response = await fetchImpl(url, { cache: "no-store" });
    if (!response.ok) return null;
    const { challenge, token } = await jsonOf(response);
    if (typeof token !== "string" || typeof challenge !== "object" || challenge === null) return null;
    return { challenge: challenge as Challenge, token };
  } catch {
    return null;
  }
}

export async function submitSignup(body: SignupRequestBody, fetchImpl: typeof fetch = fetch): Promise<SubmitResult> {
  let response: Response;
  try {
    response = await fetchImpl(WAITLIST_ENDPOINT, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    // Offline, DNS, connection reset: the visitor can simply try again.
    return { ok: false, message: VISITOR_MESSAGES.generic };
  }
  // The product does not read a success body (spec section 7).
  if (response.ok) return { ok: true };
  return refusalOf(response.status, await jsonOf(response));
}

/**
 * A refused sign-up's answer (its status and JSON body) as the visitor's message: the
 * dialog reads it from the endpoint, and the join page from the same handler on the server.
 */
export function refusalOf(status: number, { error, code, fields }: Record<string, unknown>): SubmitResult & { ok: false } {
  if (typeof error === "string" && error.includes(DUPLICATE_MARKER)) {
    // A duplicate uses up the question like a sign-up does (lib/waitlist/store.ts); the visitor
    // most likely fixes the email next, so the new question comes without taking the focus.
    return { ok: false, message: VISITOR_MESSAGES.alreadyOnList, newQuestion: { focusAnswer: false } };
  }
  // The address was refused (a throwaway domain): the email field says why.
  if (code === "email_refused" && typeof fields === "object" && fields !== null) {
    return { ok: false, message: VISITOR_MESSAGES.emailRefused, fields: fields as FieldErrors };
  }
  if (NEW_QUESTION_CODES.includes(code as ErrorCode)) {
    return { ok: false, message: VISITOR_MESSAGES.newQuestion, newQuestion: { focusAnswer: true } };
  }
  // A temporary condition on our side: nothing was stored, and the same answer can be sent again.
  if (status === 503) return { ok: false, message: VISITOR_MESSAGES.busy };
  // Everything else, a rate limit included, gets the catalogue's generic message.
  return {
    ok: false,
    message: VISITOR_MESSAGES.generic,
    ...(typeof fields === "object" && fields !== null ? { fields: fields as FieldErrors } : {}),
  };
}
