"use client";

import { useActionState } from "react";
import { buttonClasses } from "@/components/ui/button-styles";
import type { EditorState } from "@/lib/follow-up/template-editor";
import { ConfirmLink } from "@/components/operator/confirm-link";

const field = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm aria-[invalid=true]:border-red-600";

type Save = (previous: EditorState, form: FormData) => Promise<EditorState>;

/** The invitation's subject and text; `save` is the page's Server Action, so it works as a plain form without JavaScript too. */
export function InvitationEditor({ initial, save }: { initial: EditorState; save: Save }) {
  const [state, action, pending] = useActionState(save, initial);
  return (
    <form action={action} className="space-y-4" noValidate>
      {state.problems.form && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
          {state.problems.form}
          <ConfirmLink href={state.confirm} />
        </p>
      )}
      <div>
        <label htmlFor="subject" className="block text-sm font-medium text-slate-700">
          Subject
        </label>
        <input
          id="subject"
          name="subject"
          defaultValue={state.values.subject}
          key={`subject-${state.values.subject}`}
          maxLength={150}
          aria-invalid={Boolean(state.problems.subject)}
          aria-describedby={state.problems.subject ? "subject-problem" : undefined}
          className={field}
        />
        {state.problems.subject && (
          <p id="subject-problem" className="mt-1 text-sm text-red-800">
            {state.problems.subject}
          </p>
        )}
      </div>
      <div>
        <label htmlFor="body" className="block text-sm font-medium text-slate-700">
          Message
        </label>
        <textarea
          id="body"
          name="body"
          rows={12}
          defaultValue={state.values.body}
          key={`body-${state.values.body}`}
          maxLength={5000}
          aria-invalid={Boolean(state.problems.body)}
          aria-describedby={`body-help${state.problems.body ? " body-problem" : ""}`}
          className={`${field} font-mono`}
        />
        <p id="body-help" className="mt-1 text-sm text-slate-600">
          {"{{name}}"} and {"{{company}}"} become the visitor&apos;s name and company. A blank line starts a new paragraph. A link to their
          own page is added below.
        </p>
        {state.problems.body && (
          <p id="body-problem" className="mt-1 text-sm text-red-800">
            {state.problems.body}
          </p>
        )}
      </div>
      <div className="flex items-center gap-3">
        <button type="submit" disabled={pending} className={buttonClasses("primary", "sm")}>
          {pending ? "Saving…" : "Save the invitation"}
        </button>
        <p role="status" className="text-sm text-emerald-800">
          {state.saved && !pending ? "Saved. Invitations from now on use this text." : ""}
        </p>
      </div>
    </form>
  );
}
