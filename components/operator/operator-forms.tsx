"use client";

import { useActionState, type ReactNode } from "react";
import { buttonClasses } from "@/components/ui/button-styles";
import { ROLE_LABELS, ROLES } from "@/lib/auth/roles";
import type { OperatorFormState } from "@/lib/console/operator-admin";
import { ConfirmLink } from "@/components/operator/confirm-link";

type Action = (previous: OperatorFormState, form: FormData) => Promise<OperatorFormState>;

/** What a form of the Operators page came to: a sentence, a problem, and the enrolment link shown once. */
function Outcome({ state }: { state: OperatorFormState }) {
  if (state.problem) {
    return (
      <p role="alert" className="mt-2 rounded-lg bg-red-50 p-2.5 text-sm text-red-900">
        {state.problem}
        <ConfirmLink href={state.confirm} />
      </p>
    );
  }
  if (!state.done) return null;
  return (
    <div role="status" className="mt-2 rounded-lg bg-emerald-50 p-2.5 text-sm text-emerald-900">
      <p>{state.done}</p>
      {state.link && <p className="mt-1 font-mono text-xs break-all select-all">{state.link}</p>}
    </div>
  );
}

/** The roles to choose from, from the one table of them (lib/auth/roles.ts). */
function RoleOptions() {
  return ROLES.map((role) => (
    <option key={role} value={role}>
      {ROLE_LABELS[role]}
    </option>
  ));
}

/** One of an operator's row forms: the shared action, what it does, whom it is about. */
function RowForm({
  formAction,
  intent,
  email,
  className,
  children,
}: {
  formAction: (form: FormData) => void;
  intent: string;
  email: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form action={formAction} className={className}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="email" value={email} />
      {children}
    </form>
  );
}

const inputClasses = "mt-1 block w-full rounded-lg border border-slate-300 px-2.5 py-2 text-sm";

/** Adding an operator; `action` is the page's Server Action, so the form works without a script too. */
export function AddOperatorForm({ action }: { action: Action }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="mt-3">
      <input type="hidden" name="intent" value="add" />
      <div className="grid gap-3 sm:grid-cols-[2fr_1.5fr_1fr_auto] sm:items-end">
        <div>
          <label htmlFor="new-email" className="block text-sm font-medium text-slate-700">
            Email
          </label>
          <input id="new-email" name="email" type="email" required autoComplete="off" className={inputClasses} />
        </div>
        <div>
          <label htmlFor="new-name" className="block text-sm font-medium text-slate-700">
            Name (optional)
          </label>
          <input id="new-name" name="name" maxLength={100} autoComplete="off" className={inputClasses} />
        </div>
        <div>
          <label htmlFor="new-role" className="block text-sm font-medium text-slate-700">
            Role
          </label>
          <select id="new-role" name="role" defaultValue="member" className={`${inputClasses} bg-white`}>
            <RoleOptions />
          </select>
        </div>
        <button type="submit" disabled={pending} className={buttonClasses("primary", "md")}>
          {pending ? "Adding…" : "Add operator"}
        </button>
      </div>
      <Outcome state={state} />
    </form>
  );
}

type TeamMember = { id: string; email: string; name: string; role: string; summary: string };

/**
 * The team, each with a new enrolment link, the role and removal (ticked to confirm). One answer
 * for the whole list, shown above it: a removed operator's row is gone when the answer comes back.
 */
export function OperatorTeam({ action, team, youId }: { action: Action; team: TeamMember[]; youId: string }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <div>
      <Outcome state={state} />
      <ul className="mt-3 divide-y divide-slate-100">
        {team.map((member) => (
          <li key={member.id} className="grid gap-2 py-3 lg:grid-cols-[1fr_auto] lg:items-start">
            <div className="text-sm">
              <p className="font-medium text-slate-900">
                {member.name} <span className="font-normal break-all text-slate-600">{member.email}</span>
                {member.id === youId && <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">you</span>}
              </p>
              <p className="text-slate-600">{member.summary}</p>
            </div>
            <OperatorRowForms
              formAction={formAction}
              pending={pending}
              email={member.email}
              role={member.role}
              isYou={member.id === youId}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

function OperatorRowForms({
  formAction,
  pending,
  email,
  role,
  isYou,
}: {
  formAction: (form: FormData) => void;
  pending: boolean;
  email: string;
  role: string;
  isYou: boolean;
}) {
  const id = email.replace(/[^a-z0-9]/gi, "-");
  return (
    <div className="flex flex-wrap items-end gap-2">
      <RowForm formAction={formAction} intent="enrol" email={email}>
        <button type="submit" disabled={pending} className={buttonClasses("outline", "sm")}>
          New link
        </button>
      </RowForm>
      <RowForm formAction={formAction} intent="role" email={email} className="flex items-end gap-1">
        <label htmlFor={`role-${id}`} className="sr-only">
          Role of {email}
        </label>
        <select
          id={`role-${id}`}
          name="role"
          defaultValue={role}
          className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm"
        >
          <RoleOptions />
        </select>
        <button type="submit" disabled={pending} className={buttonClasses("outline", "sm")}>
          Set role
        </button>
      </RowForm>
      <RowForm formAction={formAction} intent="remove" email={email} className="flex items-center gap-2">
        <label className="flex items-center gap-1 text-sm text-slate-700">
          <input type="checkbox" name="confirm" value="yes" /> {isYou ? "Yes, remove me" : "Yes, remove"}
        </label>
        <button type="submit" disabled={pending} className={buttonClasses("danger", "sm")}>
          Remove
        </button>
      </RowForm>
    </div>
  );
}
