/**
 * Every message about a sign-up, in one place. The visitor messages are the
 * spec's error catalogue (section 8), word for word; the API errors are what
 * /api/waitlist answers in its `error` field.
 */
export const VISITOR_MESSAGES = {
  wrongAnswer: "Please solve the math challenge correctly.",
  alreadyOnList: "This email is already on our waitlist. We'll be in touch soon!",
  generic: "Something went wrong. Please try again or contact us directly.",
} as const;

/** The phrase the browser looks for to tell a duplicate from other failures (spec section 7). */
export const DUPLICATE_MARKER = "already registered";

export const API_ERRORS = {
  duplicate: `This email is ${DUPLICATE_MARKER} on the waitlist.`,
  invalidFields: "Some fields need attention.",
  invalidJson: "The request body must be valid JSON.",
  notAnObject: "The request body must be a JSON object with the sign-up fields.",
  unreadableBody: "The request body could not be read.",
  unsupportedMediaType: "Send the sign-up as JSON with the header Content-Type: application/json.",
  tooLarge: "The request body must be 16 KiB or smaller.",
  methodNotAllowed: "Use POST to join the waitlist.",
  unexpected: "Something went wrong on our side. Please try again later.",
} as const;
