import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading } from "@/components/operator/console-frame";
import { FilterSelect } from "@/components/operator/filter-select";
import { ClosedReasonSelect } from "@/components/operator/follow-up-panel";
import { FollowUpResult } from "@/components/operator/follow-up-result";
import { QueueKeys } from "@/components/operator/queue-keys";
import { buttonClasses } from "@/components/ui/button-styles";
import { requireOperator } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";
import { COUNT_CAP, NOBODY, parseQueueQuery, queuePage } from "@/lib/follow-up/queue";
import { deadlineOf, timeLeftText, urgencyOf, type Urgency } from "@/lib/follow-up/states";
import { momentIn } from "@/lib/console/time-format";
import { consoleTimeZone } from "@/lib/console/time-zone";
import { displayValue } from "@/lib/waitlist/fields";
import { BUSINESS_TYPES, COMPANY_SIZES } from "@/lib/content/signup-options";

export const metadata: Metadata = { title: "Follow-up queue" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const URGENCY: Record<Urgency, { label: string; className: string; mark: string }> = {
  overdue: { label: "Overdue", className: "border-red-300 bg-red-50 text-red-900", mark: "!" },
  due_soon: { label: "Due soon", className: "border-amber-300 bg-amber-50 text-amber-950", mark: "◷" },
  on_time: { label: "On time", className: "border-slate-200 bg-white text-slate-700", mark: "" },
};

const number = (n: number) => (n >= COUNT_CAP ? `${COUNT_CAP.toLocaleString("en-US")}+` : n.toLocaleString("en-US"));
const field = "rounded-lg border border-slate-300 bg-white px-2.5 py-2 text-sm";

export default async function QueuePage({ searchParams }: Props) {
  const operator = await requireOperator();
  const params = await searchParams;
  const { query, problems } = parseQueueQuery(params);
  const mine = query.assignee === "me";
  const database = getDatabase();
  const now = new Date();
  const [page, operators, { zone, from }] = await Promise.all([
    queuePage(database, { ...query, assignee: mine ? operator.id : query.assignee }, now),
    database.operator.findMany({ select: { id: true, name: true, email: true }, orderBy: { name: "asc" } }),
    consoleTimeZone(operator.id),
  ]);
  const moment = momentIn(zone);
  const nameOf = new Map(operators.map((o) => [o.id, o.name || o.email]));
  const filterParams = new URLSearchParams(
    Object.entries({ type: query.type, size: query.size, assignee: query.assignee }).filter((e): e is [string, string] => Boolean(e[1])),
  );
  const here = `/operator${filterParams.size ? `?${filterParams}` : ""}`;
  const result = Object.fromEntries(
    ["done", "changed", "already", "refused", "missing", "reason", "problem"].map((k) => [
      k,
      typeof params[k] === "string" ? params[k] : undefined,
    ]),
  );
  const assigneeOptions = [
    { value: "me", label: "Me" },
    { value: NOBODY, label: "Unassigned" },
    ...operators.filter((o) => o.id !== operator.id).map((o) => ({ value: o.id, label: o.name || o.email })),
  ];

  return (
    <ConsoleFrame operatorEmail={operator.email} role={operator.role} current="/operator">
      <ConsoleHeading title="Follow-up queue">
        Everyone still waiting for our first call, the oldest deadline first: we promise contact within 48 hours of signing up. Times are{" "}
        {zone}
        {from === "browser" ? " (your browser's)" : from === "account" ? " (your setting)" : ""}.
      </ConsoleHeading>
      <FollowUpResult result={result} />
      {problems.length > 0 && (
        <p role="alert" className="mb-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-950">
          Some filters were not valid and were left out: {problems.join("; ")}
        </p>
      )}

      <dl className="mb-4 grid grid-cols-3 gap-3">
        {[
          ["Overdue", page.counts.overdue, "border-red-300 bg-red-50 text-red-900"],
          ["Due within 6 hours", page.counts.dueSoon, "border-amber-300 bg-amber-50 text-amber-950"],
          ["Awaiting contact", page.counts.awaiting, "border-slate-200 bg-white text-slate-900"],
        ].map(([label, value, className]) => (
          <div key={label as string} className={`rounded-xl border p-3 ${className}`}>
            <dt className="text-sm">{label}</dt>
            <dd className="text-2xl font-bold tabular-nums">{number(value as number)}</dd>
          </div>
        ))}
      </dl>

      <div className="mb-4 flex flex-wrap items-end gap-3">
        <form
          method="get"
          action="/operator"
          role="search"
          aria-label="Filter the queue"
          className="flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-3"
        >
          <FilterSelect name="assignee" label="Assigned to" value={query.assignee} options={assigneeOptions} />
          <FilterSelect name="type" label="Trade" value={query.type} options={BUSINESS_TYPES} />
          <FilterSelect name="size" label="Size" value={query.size} options={COMPANY_SIZES} />
          <button type="submit" className={buttonClasses("outline", "sm")}>
            Filter
          </button>
        </form>
        <a
          href={mine ? "/operator" : "/operator?assignee=me"}
          className={buttonClasses(mine ? "primary" : "outline", "sm")}
          aria-current={mine ? "page" : undefined}
        >
          {mine ? "Showing my queue · show everyone's" : "My queue"}
        </a>
      </div>

      {page.rows.length === 0 ? (
        <p className="rounded-xl border border-slate-200 bg-white p-6 text-slate-700">
          {filterParams.size
            ? "No one matching these filters is waiting for contact."
            : "No one is waiting for contact. Every sign-up has been reached."}
        </p>
      ) : (
        <>
          <form
            id="bulk"
            method="post"
            action="/api/operator/follow-up"
            aria-label="Change the selected entries"
            className="mb-3 flex flex-wrap items-end gap-2 rounded-xl border border-slate-200 bg-white p-3 text-sm"
          >
            <input type="hidden" name="return" value={here} />
            <input type="hidden" name="action" value="change" />
            <div>
              <label htmlFor="bulk-to" className="block font-medium text-slate-700">
                Selected become
              </label>
              <select id="bulk-to" name="to" className={`mt-1 ${field}`} defaultValue="contacted">
                <option value="contacted">Contacted</option>
                <option value="in_conversation">In conversation</option>
                <option value="invited">Invited (sends the invitation email)</option>
                <option value="closed">Closed</option>
              </select>
            </div>
            <div>
              <label htmlFor="bulk-reason" className="block font-medium text-slate-700">
                If closed, why
              </label>
              <ClosedReasonSelect id="bulk-reason" className={`mt-1 ${field}`} />
            </div>
            <div className="min-w-48 flex-1">
              <label htmlFor="bulk-note" className="block font-medium text-slate-700">
                Note for each (optional)
              </label>
              <input id="bulk-note" name="note" maxLength={2000} className={`mt-1 w-full ${field}`} />
            </div>
            <button type="submit" className={buttonClasses("primary", "sm")}>
              Change selected
            </button>
          </form>
          <QueueKeys />
          <ol aria-label="Awaiting contact" className="space-y-2">
            {page.rows.map((row) => {
              const urgency = URGENCY[urgencyOf(row.createdAt, now)];
              return (
                <li
                  key={row.id}
                  data-queue-row
                  className={`grid gap-3 rounded-xl border p-3 sm:grid-cols-[auto_1fr_auto] sm:items-center ${urgency.className}`}
                >
                  <input
                    type="checkbox"
                    name="id"
                    value={row.id}
                    form="bulk"
                    aria-label={`Select ${row.contactName}`}
                    className="size-5 accent-ink-950"
                  />
                  <div className="min-w-0">
                    <a
                      href={`/operator/entries/${row.id}`}
                      data-queue-focus
                      aria-describedby="queue-keys"
                      className="font-semibold text-slate-900 underline-offset-2 hover:underline"
                    >
                      {row.contactName}
                    </a>
                    <span className="text-slate-700"> · {row.companyName}</span>
                    <div className="text-sm text-slate-700">
                      {displayValue("business_type", row.businessType)} · {displayValue("company_size", row.companySize)}
                      {row.assignedTo ? ` · assigned to ${nameOf.get(row.assignedTo) ?? "a removed operator"}` : ""}
                    </div>
                    <div className="text-sm">
                      {urgency.mark && (
                        <strong className="mr-1">
                          <span aria-hidden="true">{urgency.mark} </span>
                          {urgency.label}:
                        </strong>
                      )}
                      <span className="tabular-nums">{timeLeftText(row.createdAt, now)}</span>
                      <span className="text-slate-600"> · due {moment(deadlineOf(row.createdAt))}</span>
                    </div>
                  </div>
                  <form method="post" action="/api/operator/follow-up" data-queue-contact className="flex flex-wrap items-center gap-2">
                    <input type="hidden" name="return" value={here} />
                    <input type="hidden" name="action" value="change" />
                    <input type="hidden" name="to" value="contacted" />
                    <input type="hidden" name="id" value={row.id} />
                    <label className="sr-only" htmlFor={`note-${row.id}`}>
                      Note on contacting {row.contactName} (optional)
                    </label>
                    <input
                      id={`note-${row.id}`}
                      name="note"
                      maxLength={2000}
                      placeholder="Note (optional)"
                      className={`w-full sm:w-44 ${field}`}
                    />
                    <button type="submit" className={buttonClasses("primary", "sm")}>
                      Mark contacted
                    </button>
                  </form>
                </li>
              );
            })}
          </ol>
          {(page.next || query.after) && (
            <p className="mt-4 flex gap-2">
              {query.after && (
                <a href={here} className={buttonClasses("outline", "sm")}>
                  ← Oldest deadlines
                </a>
              )}
              {page.next && (
                <a
                  href={`/operator?${new URLSearchParams([...filterParams, ["after", page.next]])}`}
                  className={buttonClasses("outline", "sm")}
                >
                  Next page →
                </a>
              )}
            </p>
          )}
        </>
      )}
    </ConsoleFrame>
  );
}
