"use client";

import { RefreshCw } from "lucide";
import type { ButtonHTMLAttributes, InputHTMLAttributes } from "react";
import { Icon } from "@/components/ui/icon";
import { questionOf } from "@/lib/waitlist/challenge";
import { VISITOR_MESSAGES } from "@/lib/waitlist/messages";
import { controlClasses } from "./form-field";
import type { ChallengeState } from "./use-server-challenge";

type Props = {
  id: string;
  challenge: ChallengeState;
  error?: string;
  /** The answer's value and how it changes (the dialog), or what it starts with (the join page). */
  answer: Pick<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "defaultValue" | "autoFocus">;
  /** "New question": a button the dialog handles, or the join page's submit button that asks the server. */
  renew: ButtonHTMLAttributes<HTMLButtonElement>;
};

/** The security question (spec section 5), issued by the server, with a button for a different one. */
export function MathChallenge({ id, challenge, error, answer, renew }: Props) {
  const loading = challenge.status === "loading";
  const questionId = `${id}-question`;
  const errorId = `${id}-error`;
  return (
    <div className="rounded-xl border border-slate-200 bg-slate-50 p-4">
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        Security check
      </label>
      <p className="mt-0.5 text-sm text-slate-600">Solve this so we know you&apos;re a person.</p>
      <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2">
        {/* Read out through aria-describedby; polite so a new question is announced. */}
        <p id={questionId} aria-live="polite" aria-busy={loading} className="min-w-24 text-lg font-semibold tabular-nums text-slate-900">
          {challenge.status === "ready" ? (
            <>
              <span className="sr-only">What is </span>
              <span data-testid="math-question">{questionOf(challenge.current.challenge)}</span>
              <span aria-hidden="true"> =</span>
              <span className="sr-only">?</span>
            </>
          ) : (
            // Same height as a question, so nothing below moves when it arrives.
            <span className="text-base font-normal text-slate-600">{loading ? "Loading…" : "Unavailable"}</span>
          )}
        </p>
        <input
          id={id}
          {...answer}
          name="challenge_answer"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          required
          aria-invalid={!!error}
          aria-describedby={error ? `${questionId} ${errorId}` : questionId}
          className={`${controlClasses} max-w-24`}
        />
        <button
          type="button"
          disabled={loading}
          {...renew}
          className="inline-flex items-center gap-1.5 rounded-lg px-2.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-200 hover:text-slate-900 disabled:opacity-60"
        >
          <Icon node={RefreshCw} className="size-4" />
          New question
        </button>
      </div>
      {challenge.status === "failed" && !error && (
        <p className="mt-2 text-sm font-medium text-red-700">{VISITOR_MESSAGES.questionUnavailable}</p>
      )}
      {error && (
        <p id={errorId} className="mt-2 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
