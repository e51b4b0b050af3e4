"use client";

import { RefreshCw } from "lucide-react";
import { questionOf, type Challenge } from "@/lib/waitlist/challenge";
import { controlClasses } from "./form-field";

type Props = {
  id: string;
  challenge: Challenge;
  answer: string;
  error?: string;
  onRegenerate: () => void;
  onAnswerChange: (answer: string) => void;
};

/** The security question (spec section 5), with a button for a different one. */
export function MathChallenge({ id, challenge, answer, error, onRegenerate, onAnswerChange }: Props) {
  const question = questionOf(challenge);
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
        <p id={questionId} aria-live="polite" className="text-lg font-semibold tabular-nums text-slate-900">
          <span className="sr-only">What is </span>
          <span data-testid="math-question">{question}</span>
          <span aria-hidden="true"> =</span>
          <span className="sr-only">?</span>
        </p>
        <input
          id={id}
          name="answer"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          required
          aria-invalid={!!error}
          aria-describedby={error ? `${questionId} ${errorId}` : questionId}
          className={`${controlClasses} max-w-24`}
          value={answer}
          onChange={(event) => onAnswerChange(event.target.value)}
        />
        <button
          type="button"
          onClick={onRegenerate}
          className="inline-flex items-center gap-1.5 rounded-lg px-2.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-200 hover:text-slate-900"
        >
          <RefreshCw aria-hidden="true" className="size-4" />
          New question
        </button>
      </div>
      {error && (
        <p id={errorId} className="mt-2 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
