"use client";

import { useActionState, useId } from "react";
import { buttonClasses } from "@/components/ui/button-styles";
import type { LinkAgainState } from "@/lib/waitlist/link-again";
import { controlClasses, FormField } from "./form-field";

type Props = { action: (previous: LinkAgainState, form: FormData) => Promise<LinkAgainState> };

/** One field and the one answer; a plain form post without a script, the same action with one. */
export function LinkAgainForm({ action }: Props) {
  const id = useId();
  const [state, formAction, pending] = useActionState(action, { email: "" });
  return (
    <form action={formAction} noValidate className="space-y-4">
      <FormField id={`${id}-email`} label="Email address" error={state.error}>
        {(control) => (
          <input
            {...control}
            key={state.answer ?? state.error ?? ""}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            required
            defaultValue={state.email}
            autoFocus={!!state.error}
            className={controlClasses}
          />
        )}
      </FormField>
      {state.answer && (
        <p role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-900">
          {state.answer}
        </p>
      )}
      <button type="submit" disabled={pending} className={buttonClasses("primary", "lg", "w-full")}>
        {pending ? "Sending..." : "Email me my link"}
      </button>
    </form>
  );
}
