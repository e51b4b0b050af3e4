"use client";

import { useActionState, useEffect, useId, useRef, useState } from "react";
import { buttonClasses } from "@/components/ui/button-styles";
import { NEW_QUESTION_INTENT, type JoinFormState } from "@/lib/waitlist/join-state";
import { HONEYPOT_FIELD, SOURCE_FIELDS } from "@/lib/waitlist/form-names";
import { Honeypot } from "./honeypot";
import { MathChallenge } from "./math-challenge";
import { PrivacyLine, SignupRefusal, WaitlistIntro } from "./signup-notes";
import { firstRefusedField, SignupFields } from "./signup-fields";
import { SignupSuccess } from "./signup-success";

type Props = {
  initial: JoinFormState;
  /** The Server Action (app/(site)/join/actions.ts): one post in, the page's next state out. */
  action: (previous: JoinFormState, form: FormData) => Promise<JoinFormState>;
  /** The page's title (the form's, then the success view's): what the page's section is labelled by. */
  titleId: string;
};

/**
 * The join page's form. Without a script it is a plain form post answered by the page
 * itself, re-rendered by the server (useActionState's progressive enhancement); with one,
 * the same action runs without a page load. Either way the server decides everything.
 */
export function JoinForm({ initial, action, titleId }: Props) {
  const id = useId();
  const [state, formAction, pending] = useActionState(action, initial);
  const container = useRef<HTMLDivElement>(null);
  const fieldId = (name: string) => `${id}-${name}`;
  // Each answer draws a new form: its fields start from the answer's values. (Kept in place, React
  // would reset the old form after the action, and a select resets to its first default, not the kept choice.)
  const [shown, setShown] = useState({ state, round: 0 });
  if (shown.state !== state) setShown({ state, round: shown.round + 1 });

  // With a script, an answer arrives without a page load, so the focus goes where autofocus
  // takes it when the page loads: the first refused field, else the message, else the success title.
  useEffect(() => {
    if (state === initial) return;
    const within = container.current;
    const target =
      within?.querySelector('[aria-invalid="true"]') ??
      within?.querySelector('[role="alert"]') ??
      within?.querySelector("[data-initial-focus]");
    if (target instanceof HTMLElement) target.focus();
  }, [state, initial]);

  return (
    <div ref={container}>
      {state.outcome === "joined" ? (
        <SignupSuccess joined={state.joined} titleId={titleId} level="h1">
          <a href="/" className={buttonClasses("dark", "md")}>
            Back to the home page
          </a>
        </SignupSuccess>
      ) : (
        <>
          <WaitlistIntro titleId={titleId} level="h1" />
          <div className="mt-6">
            <RefusableForm key={shown.round} state={state} action={formAction} pending={pending} fieldId={fieldId} />
          </div>
        </>
      )}
    </div>
  );
}

type FormProps = {
  state: JoinFormState & { outcome: "form" };
  action: (form: FormData) => void;
  pending: boolean;
  fieldId: (name: string) => string;
};

/** The form as the last answer left it: values kept, errors beside their fields, the question to answer. */
function RefusableForm({ state, action, pending, fieldId }: FormProps) {
  const firstRefused = firstRefusedField(state.errors);
  return (
    <form action={action} noValidate className="space-y-5">
      {/* Enter in a field presses the form's first submit button; without this one that would be
          "New question" (a submit button too, so it works with no script). Unseen, unreachable by Tab. */}
      <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      {SOURCE_FIELDS.map((name) => (
        <input key={name} type="hidden" name={name} value={state.values[name]} />
      ))}
      <input type="hidden" name="challenge_token" value={state.question.token} />

      {state.message && <SignupRefusal message={state.message} autoFocus={!firstRefused} />}

      <SignupFields idOf={fieldId} errors={state.errors} values={state.values} autoFocusField={firstRefused} />

      <Honeypot id={fieldId(HONEYPOT_FIELD)} name={HONEYPOT_FIELD} />

      <MathChallenge
        // A new question is a new input: the answer typed for the old one does not carry over.
        key={state.question.token}
        id={fieldId("answer")}
        challenge={{ status: "ready", current: state.question }}
        error={state.answerError}
        answer={{ defaultValue: state.keepAnswer ?? "", autoFocus: !firstRefused && !!state.answerError }}
        renew={{ type: "submit", name: "intent", value: NEW_QUESTION_INTENT, formNoValidate: true, disabled: pending }}
      />

      <button type="submit" disabled={pending} className={buttonClasses("primary", "lg", "w-full")}>
        {pending ? "Securing Your Spot..." : "Secure My Spot"}
      </button>
      <PrivacyLine />
    </form>
  );
}
