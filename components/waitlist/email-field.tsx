"use client";

import { useEffect, useRef, useState } from "react";
import { controlClasses, FormField } from "./form-field";

type Props = {
  id: string;
  error?: string;
  /** The address already typed (the join page keeps it across a refused post). */
  defaultValue?: string;
  autoFocus?: boolean;
  /** The visitor changed the address (so its error, if any, no longer applies). */
  onEdit: () => void;
};

/** How long typing must pause before a suggestion is looked for. */
const SUGGEST_AFTER_MS = 600;

// The spell checker and its list of domains are needed only once someone types an address, so they
// are a chunk of their own, fetched when the field first takes the focus: the join page, whose form
// is on the screen from the start, does not run them while it loads (docs/performance.md).
const loadSuggester = () => import("@/lib/waitlist/email-suggestion");

/**
 * The email field, with "Did you mean jo@gmail.com?" under it when the domain
 * looks mistyped: shown when the visitor pauses or leaves the field, announced
 * by a polite live region, and accepted with one click (or Enter or Space on
 * the button, which Tab reaches straight from the field). It never blocks a
 * sign-up: the address as typed is sent if the visitor ignores it.
 */
export function EmailField({ id, error, defaultValue, autoFocus, onEdit }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [suggestion, setSuggestion] = useState<string | null>(null);
  const suggestionId = `${id}-suggestion`;

  useEffect(() => () => clearTimeout(timer.current), []);

  function lookForSuggestion() {
    clearTimeout(timer.current);
    const typed = input.current?.value ?? "";
    void loadSuggester().then(
      ({ suggestEmail }) => {
        // An address changed meanwhile is looked at again when the visitor pauses or leaves.
        if ((input.current?.value ?? "") === typed) setSuggestion(suggestEmail(typed));
      },
      // Not loaded (the connection dropped): no suggestion, which never stops a sign-up.
      () => {},
    );
  }

  function accept() {
    if (!input.current || !suggestion) return;
    input.current.value = suggestion;
    setSuggestion(null);
    onEdit();
    input.current.focus();
  }

  return (
    <FormField id={id} label="Email" error={error}>
      {(control) => (
        <>
          <input
            {...control}
            ref={input}
            aria-describedby={[control["aria-describedby"], suggestion ? suggestionId : undefined].filter(Boolean).join(" ") || undefined}
            type="email"
            name="email"
            defaultValue={defaultValue}
            autoFocus={autoFocus}
            autoComplete="email"
            inputMode="email"
            required
            className={controlClasses}
            onInput={() => {
              onEdit();
              clearTimeout(timer.current);
              timer.current = setTimeout(lookForSuggestion, SUGGEST_AFTER_MS);
            }}
            onFocus={() => void loadSuggester().catch(() => {})}
            onBlur={lookForSuggestion}
          />
          {/* Always in the page, so screen readers hear a suggestion when it appears. */}
          <p id={suggestionId} aria-live="polite" className={suggestion ? "mt-1.5 text-sm text-slate-700" : undefined}>
            {suggestion && (
              <>
                Did you mean{" "}
                <button
                  type="button"
                  onClick={accept}
                  className="cursor-pointer rounded font-semibold text-brand-800 underline underline-offset-2 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
                >
                  {suggestion}
                </button>
                ?
              </>
            )}
          </p>
        </>
      )}
    </FormField>
  );
}
