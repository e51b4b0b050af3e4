/**
 * What the join page shows after each post (lib/waitlist/join-form.ts makes it on the
 * server; components/waitlist/join-form.tsx draws it, with or without a script).
 */
import type { ServerChallenge } from "./submit";
import type { FieldErrors, WaitlistField } from "./schema";

/** Every field as the visitor typed it (kept across refusals), the hidden source fields included. */
export type JoinValues = Record<WaitlistField, string>;

export type JoinedSummary = { contact_name: string; company_name: string; email: string };

export type JoinFormState =
  | {
      outcome: "form";
      values: JoinValues;
      errors: FieldErrors;
      /** The spec's message for a wrong answer, shown at the question. */
      answerError?: string;
      /** A refusal of the whole sign-up (a duplicate, a busy moment), from the spec's catalogue. */
      message?: string;
      question: ServerChallenge;
      /** The answer typed, kept when the question is still the same one (only fields were refused). */
      keepAnswer?: string;
    }
  | { outcome: "joined"; joined: JoinedSummary };

/** The "New question" button's value: the form comes back with another question, nothing sent. */
export const NEW_QUESTION_INTENT = "new-question";
