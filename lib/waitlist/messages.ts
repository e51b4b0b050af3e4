/**
 * What the visitor reads about a sign-up: the spec's error catalogue (section 8), word for word,
 * and the few messages it leaves open. What /api/waitlist answers in its `error` field is each
 * code's one sentence (lib/http.ts); the duplicate's carries DUPLICATE_MARKER.
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

/** Codes after which the dialog asks the server for a new question. */
export const NEW_QUESTION_CODES: readonly ErrorCode[] = ["challenge_invalid", "challenge_expired", "challenge_used"];
