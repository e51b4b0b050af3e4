/**
 * Every message about a sign-up, in one place. The visitor messages are the
 * spec's error catalogue (section 8), word for word; the API errors are what
 * /api/waitlist answers in its `error` field.
 */
import type { ErrorCode } from "../http";
export const VISITOR_MESSAGES = {
  wrongAnswer: "Please solve the math challenge correctly.",
  alreadyOnList: "This email is already on our waitlist. We'll be in touch soon!",
  generic: "Something went wrong. Please try again or contact us directly.",
  /** Not in the spec's catalogue: the server refused the question itself, and a new one is on screen. */
  newQuestion: "That security question expired. Please answer the new one.",
  questionUnavailable: "We couldn't load the security question. Check your connection and choose New question.",
  /** Not in the spec's catalogue: a 503, a temporary condition on our side. Nothing was stored; the form is kept. */
  busy: "We're very busy right now and couldn't save your sign-up. Nothing was lost: please try again in a moment.",
  /** Not in the spec's catalogue: "Email me my link again" could not be taken for a moment; nothing was done. */
  busyLinkAgain: "We're very busy right now and couldn't take your request. Please try again in a moment.",
  /** Not in the spec's catalogue: the server refused the address (a throwaway domain); the email field says why. */
  emailRefused: "Please use another email address.",
} as const;

/** The phrase the browser looks for to tell a duplicate from other failures (spec section 7). */
export const DUPLICATE_MARKER = "already registered";

/**
 * What /api/waitlist answers when it refuses a request: `{ error, code }`, the
 * code being the key here. `error` is for people reading the answer; `code` is
 * for programs, such as the dialog telling an expired question from other failures.
 */
export const API_ERRORS = {
  already_registered: `This email is ${DUPLICATE_MARKER} on the waitlist.`,
  email_refused: "This email address can't be used for the waitlist; `fields.email` says why.",
  invalid_fields: "Some fields need attention.",
  invalid_json: "The request body must be valid JSON.",
  not_an_object: "The request body must be a JSON object with the sign-up fields.",
  unreadable_body: "The request body could not be read.",
  unsupported_media_type: "Send the sign-up as JSON with the header Content-Type: application/json.",
  too_large: "The request body must be 16 KiB or smaller.",
  method_not_allowed: "Use POST to join the waitlist.",
  foreign_origin: "Sign-ups are accepted only from this site's own pages.",
  rate_limited: "Too many sign-up attempts from your network. Please wait a few minutes and try again.",
  challenge_invalid: "The security question is missing or was not issued by this site. Please answer a new one.",
  challenge_expired: "The security question has expired. Please answer a new one.",
  challenge_used: "This security question has already been used. Please answer a new one.",
  challenge_wrong_answer: "The answer to the security question is not correct.",
  unexpected: "Something went wrong on our side. Please try again later.",
  temporarily_unavailable: "The waitlist cannot take sign-ups for a moment. Nothing was stored; please try again in a few seconds.",
  overloaded: "The waitlist is very busy right now. Nothing was stored; please try again in a few seconds.",
} as const satisfies Partial<Record<ErrorCode, string>>;

export type ApiErrorCode = keyof typeof API_ERRORS;

/** Codes after which the dialog asks the server for a new question. */
export const NEW_QUESTION_CODES: readonly ApiErrorCode[] = ["challenge_invalid", "challenge_expired", "challenge_used"];
