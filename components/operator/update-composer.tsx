"use client";

import { useActionState } from "react";
import { buttonClasses } from "@/components/ui/button-styles";
import { ConfirmLink } from "@/components/operator/confirm-link";
import { FilterSelect } from "@/components/operator/filter-select";
import type { ComposerState } from "@/lib/updates/composer";

const field = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm aria-[invalid=true]:border-red-600";
const label = "block text-sm font-medium text-slate-700";

type Answer = (previous: ComposerState, form: FormData) => Promise<ComposerState>;
type Option = { value: string; label: string };

function Typed({ name, text, value, type = "text", hint }: { name: string; text: string; value?: string; type?: string; hint?: string }) {
  return (
    <div>
      <label htmlFor={`segment-${name}`} className={label}>
        {text}
      </label>
      <input
        id={`segment-${name}`}
        name={name}
        type={type}
        defaultValue={value ?? ""}
        key={`${name}-${value ?? ""}`}
        placeholder={hint}
        className={field}
      />
    </div>
  );
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * The update form: subject, text and segment, then Check, Send a test to me, and Send. `answer` is
 * the page's Server Action, so it works as a plain form without JavaScript too.
 */
export function UpdateComposer({
  initial,
  answer,
  choices,
}: {
  initial: ComposerState;
  answer: Answer;
  choices: { types: readonly Option[]; sizes: readonly Option[]; states: readonly Option[] };
}) {
  const [state, action, pending] = useActionState(answer, initial);
  const { values, problems, checked } = state;
  return (
    <form action={action} className="space-y-5" noValidate>
      <input type="hidden" name="requestKey" value={state.requestKey} />
      {problems.form && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
          {problems.form}
          <ConfirmLink href={state.confirm} />
        </p>
      )}
      <div>
        <label htmlFor="update-subject" className={label}>
          Subject
        </label>
        <input
          id="update-subject"
          name="subject"
          defaultValue={values.subject}
          key={`subject-${values.subject ?? ""}`}
          maxLength={150}
          aria-invalid={Boolean(problems.subject)}
          aria-describedby={problems.subject ? "update-subject-problem" : undefined}
          className={field}
        />
        {problems.subject && (
          <p id="update-subject-problem" className="mt-1 text-sm text-red-800">
            {problems.subject}
          </p>
        )}
      </div>
      <div>
        <label htmlFor="update-body" className={label}>
          Message
        </label>
        <textarea
          id="update-body"
          name="body"
          rows={10}
          defaultValue={values.body}
          key={`body-${values.body ?? ""}`}
          maxLength={5000}
          aria-invalid={Boolean(problems.body)}
          aria-describedby={`update-body-help${problems.body ? " update-body-problem" : ""}`}
          className={`${field} font-mono`}
        />
        <p id="update-body-help" className="mt-1 text-sm text-slate-600">
          Plain text. {"{{name}}"} and {"{{company}}"} become the entry&apos;s name and company (left out for an address not confirmed yet).
          A blank line starts a paragraph; a link to their own page and the one-click unsubscribe are added.
        </p>
        {problems.body && (
          <p id="update-body-problem" className="mt-1 text-sm text-red-800">
            {problems.body}
          </p>
        )}
      </div>
      <fieldset aria-describedby={problems.segment ? "update-segment-problem" : undefined}>
        <legend className="text-sm font-semibold text-slate-900">Who gets it</legend>
        <p className="mt-1 text-sm text-slate-600">
          Everyone on the list, or only the entries that match all of these. Unsubscribed and bounced addresses never get it.
        </p>
        <div className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-4">
          <FilterSelect id="segment-type" name="type" label="Business type" options={choices.types} value={values.type} />
          <FilterSelect id="segment-size" name="size" label="Company size" options={choices.sizes} value={values.size} />
          <FilterSelect id="segment-state" name="state" label="Follow-up" options={choices.states} value={values.state} />
          <FilterSelect
            id="segment-confirmed"
            name="confirmed"
            label="Email"
            options={[
              { value: "yes", label: "Confirmed" },
              { value: "no", label: "Not confirmed yet" },
            ]}
            value={values.confirmed}
          />
          <Typed name="source" text="Source" value={values.source} hint="direct, google, …" />
          <Typed name="campaign" text="Campaign" value={values.campaign} hint="none, launch, …" />
          <Typed name="from" text="Joined from" type="date" value={values.from} />
          <Typed name="to" text="Joined until" type="date" value={values.to} />
        </div>
        {problems.segment && (
          <p id="update-segment-problem" role="alert" className="mt-2 text-sm text-red-800">
            {problems.segment}
          </p>
        )}
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" name="intent" value="check" disabled={pending} className={buttonClasses("outline", "sm")}>
          Check
        </button>
        <button type="submit" name="intent" value="test" disabled={pending} className={buttonClasses("outline", "sm")}>
          Send a test to me
        </button>
        <button type="submit" name="intent" value="send" disabled={pending} className={buttonClasses("primary", "sm")}>
          {checked && checked.count > 0 ? `Send to ${count(checked.count)} ${checked.count === 1 ? "entry" : "entries"}` : "Send"}
        </button>
        <p role="status" className="text-sm text-emerald-800">
          {pending
            ? "Working…"
            : state.sent
              ? state.sent.created
                ? `Update #${state.sent.id} is on its way to ${count(state.sent.queued)} entries. Its progress is below.`
                : `This form had sent update #${state.sent.id} already; nothing more was sent.`
              : state.tested
                ? `A test went to ${state.tested}.`
                : ""}
        </p>
      </div>
      {checked && checked.preview && (
        <section aria-labelledby="update-preview-title" className="rounded-lg border border-slate-200 bg-slate-50 p-4">
          <h3 id="update-preview-title" className="text-sm font-semibold text-slate-900">
            {count(checked.count)} {checked.count === 1 ? "entry gets" : "entries get"} it. As #{checked.preview.entryId},{" "}
            {checked.preview.company}
            {checked.preview.confirmed ? "" : " (address not confirmed yet)"}, gets it:
          </h3>
          <p className="mt-3 text-sm text-slate-600">Subject</p>
          <p className="font-semibold text-slate-900">{checked.preview.email.subject}</p>
          <p className="mt-3 text-sm text-slate-600">Message (the plain-text part; the HTML part says the same in the site&apos;s look)</p>
          <pre className="mt-1 rounded-lg bg-white p-3 text-sm whitespace-pre-wrap text-slate-800 wrap-anywhere">
            {checked.preview.email.text}
          </pre>
        </section>
      )}
    </form>
  );
}
