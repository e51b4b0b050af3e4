"use client";

import { useId, useState, type FormEvent } from "react";
import { buttonClasses } from "@/components/ui/button-styles";
import { isCorrectAnswer } from "@/lib/waitlist/challenge";
import { VISITOR_MESSAGES } from "@/lib/waitlist/messages";
import {
  fieldErrorsOf,
  HONEYPOT_FIELD,
  waitlistSignupSchema,
  type FieldErrors,
  type WaitlistField,
  type WaitlistSignup,
} from "@/lib/waitlist/schema";
import { signupSource, visitStorage } from "@/lib/waitlist/source";
import { submitSignup } from "@/lib/waitlist/submit";
import { Honeypot } from "./honeypot";
import { MathChallenge } from "./math-challenge";
import { PrivacyLine, SignupRefusal } from "./signup-notes";
import { firstRefusedField, SignupFields } from "./signup-fields";
import { useServerChallenge } from "./use-server-challenge";

type Props = {
  /** Changes every time the dialog opens; each opening gets a new question. */
  openCount: number;
  onSuccess: (signup: WaitlistSignup) => void;
};

type Status = { state: "idle" | "submitting" } | { state: "error"; message: string };

export function WaitlistForm({ openCount, onSuccess }: Props) {
  const id = useId();
  const { state: challenge, renew: renewChallenge } = useServerChallenge(openCount);
  const [answerFor, setAnswerFor] = useState(openCount);
  const [answer, setAnswer] = useState("");
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [answerError, setAnswerError] = useState<string>();
  const [status, setStatus] = useState<Status>({ state: "idle" });

  const fieldId = (name: string) => `${id}-${name}`;

  // A new opening of the dialog brings a new question, and a blank answer to go with it.
  if (answerFor !== openCount) {
    setAnswerFor(openCount);
    setAnswerError(undefined);
    setAnswer("");
  }

  function clearError(name: WaitlistField) {
    if (fieldErrors[name]) setFieldErrors(({ [name]: _cleared, ...rest }) => rest);
  }

  function regenerate() {
    renewChallenge();
    setAnswer("");
    setAnswerError(undefined);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status.state === "submitting") return;
    const form = event.currentTarget;
    const { challenge_answer: _answer, ...fields } = Object.fromEntries(new FormData(form)) as Record<string, string>;

    const parsed = waitlistSignupSchema.safeParse(fields);
    const errors = parsed.success ? {} : fieldErrorsOf(parsed.error);
    // Checked here first, so a wrong answer sends nothing; the question stays
    // the same after it (spec section 4). The server checks it again.
    const question = challenge.status === "ready" ? challenge.current : undefined;
    const answerIsRight = !!question && isCorrectAnswer(question.challenge, answer);
    setFieldErrors(errors);
    setAnswerError(answerIsRight ? undefined : question ? VISITOR_MESSAGES.wrongAnswer : VISITOR_MESSAGES.questionUnavailable);

    if (!parsed.success || !question || !answerIsRight) {
      setStatus({ state: "idle" });
      const firstInvalid = firstRefusedField(errors);
      const target = firstInvalid ? fieldId(firstInvalid) : fieldId("answer");
      form.querySelector<HTMLElement>(`#${CSS.escape(target)}`)?.focus();
      return;
    }

    setStatus({ state: "submitting" });
    void import("@/lib/analytics/beacon").then((beacon) => beacon.countStep("submit"));
    const result = await submitSignup({
      ...parsed.data,
      ...signupSource(window.location.pathname, visitStorage()),
      challenge_token: question.token,
      challenge_answer: answer.trim(),
      [HONEYPOT_FIELD]: fields[HONEYPOT_FIELD] ?? "",
    });
    if (result.ok) {
      onSuccess(parsed.data);
      return;
    }
    setFieldErrors(result.fields ?? {});
    setStatus({ state: "error", message: result.message });
    // A field the server refused (a throwaway email domain) is where the visitor goes next.
    const refusedField = firstRefusedField(result.fields);
    if (refusedField) form.querySelector<HTMLElement>(`#${CSS.escape(fieldId(refusedField))}`)?.focus();
    if (result.newQuestion) {
      renewChallenge();
      setAnswer("");
      if (result.newQuestion.focusAnswer) form.querySelector<HTMLElement>(`#${CSS.escape(fieldId("answer"))}`)?.focus();
    }
  }

  const submitting = status.state === "submitting";

  return (
    <form noValidate onSubmit={handleSubmit} className="space-y-5">
      <SignupFields idOf={fieldId} errors={fieldErrors} onEdit={clearError} />

      <Honeypot id={fieldId(HONEYPOT_FIELD)} name={HONEYPOT_FIELD} />

      <MathChallenge
        id={fieldId("answer")}
        challenge={challenge}
        error={answerError}
        answer={{
          value: answer,
          onChange: (event) => {
            setAnswer(event.target.value);
            setAnswerError(undefined);
          },
        }}
        renew={{ onClick: regenerate }}
      />

      {status.state === "error" && <SignupRefusal message={status.message} />}

      <button type="submit" disabled={submitting} className={buttonClasses("primary", "lg", "w-full")}>
        {submitting ? "Securing Your Spot..." : "Secure My Spot"}
      </button>
      <PrivacyLine />
    </form>
  );
}
