import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ConsoleFrame, ConsoleSection } from "@/components/operator/console-frame";
import { buttonClasses } from "@/components/ui/button-styles";
import { requireOperator } from "@/lib/auth/session";
import { may } from "@/lib/auth/roles";
import { FreshSignInNotice } from "@/components/operator/fresh-sign-in-notice";
import { getDatabase } from "@/lib/db";
import { updatesOfEntry } from "@/lib/updates/updates";
import { listActions } from "@/lib/audit/trail";
import { entryDetail } from "@/lib/console/queries";
import { displayValue, SIGNUP_FIELD_NAMES, SIGNUP_FIELDS } from "@/lib/waitlist/fields";
import { FollowUpPanel } from "@/components/operator/follow-up-panel";
import { FollowUpResult } from "@/components/operator/follow-up-result";
import { timelineOf } from "@/lib/follow-up/changes";
import { momentIn } from "@/lib/console/time-format";
import { consoleTimeZone } from "@/lib/console/time-zone";

export const metadata: Metadata = { title: "Entry" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | undefined>> };

const DELIVERY_NAMES: Record<string, string> = {
  "email:created": "Confirmation email",
  "email:invitation": "Invitation email",
  "webhook:created": "Webhook: signed up",
  "webhook:status_changed": "Webhook: follow-up changed",
  "webhook:overdue": "Webhook: overdue",
};

const DONE: Record<string, string> = {
  redelivered: "The delivery is waiting again; the site sends it within seconds.",
  not_failed: "That delivery is not failed any more, so nothing was changed.",
};

export default async function EntryPage({ params, searchParams }: Props) {
  const operator = await requireOperator();
  const [{ id }, query] = await Promise.all([params, searchParams]);
  const { confirm, done } = query;
  if (!/^[1-9]\d{0,15}$/.test(id)) notFound();
  const database = getDatabase();
  const [detail, trail, timeline, operators, { zone }, updates] = await Promise.all([
    entryDetail(database, Number(id)),
    listActions(database, { limit: 50, entryId: Number(id) }),
    timelineOf(database, Number(id)),
    database.operator.findMany({ select: { id: true, name: true, email: true }, orderBy: { name: "asc" } }),
    consoleTimeZone(operator.id),
    updatesOfEntry(database, Number(id)),
  ]);
  const when = momentIn(zone);
  if (!detail) {
    return (
      <ConsoleFrame operatorEmail={operator.email} role={operator.role} current="/operator/entries">
        <h1 className="text-2xl font-bold text-slate-900">Entry #{id} is not on the list</h1>
        <p className="mt-2 text-slate-600">It was removed, or never existed.</p>
        <a href="/operator/entries" className={buttonClasses("outline", "sm", "mt-4")}>
          Back to the entries
        </a>
      </ConsoleFrame>
    );
  }
  const { entry } = detail;
  // An update's email is listed under Updates, with the update's subject.
  const deliveries = detail.deliveries.filter((d) => d.kind !== "update");
  const confirming = confirm === "remove";

  return (
    <ConsoleFrame operatorEmail={operator.email} role={operator.role} current="/operator/entries">
      <a href="/operator/entries" className="text-sm text-slate-600 hover:underline">
        ← Entries
      </a>
      <div className="mt-2 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{entry.contact_name}</h1>
          <p className="text-slate-600">
            {entry.company_name} · entry #{entry.id}
          </p>
        </div>
        {!confirming && may(operator.role, "remove_entry") && (
          <a href={`/operator/entries/${entry.id}?confirm=remove`} className={buttonClasses("danger", "sm")}>
            Remove entry…
          </a>
        )}
      </div>
      <FollowUpResult result={query} />
      {done && DONE[done] && (
        <p role="status" className="mt-4 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900">
          {DONE[done]}
        </p>
      )}
      {confirming && may(operator.role, "remove_entry") && (
        <section aria-labelledby="remove-heading" className="mt-4 rounded-xl border border-red-200 bg-red-50 p-4">
          <h2 id="remove-heading" className="font-semibold text-red-900">
            Remove {entry.contact_name} from the waitlist for good?
          </h2>
          <p className="mt-1 text-sm text-red-900">
            Their entry and anything still to be sent about it are deleted. This cannot be undone; the audit log keeps that you did it.
          </p>
          <FreshSignInNotice session={operator} returnTo={`/operator/entries/${entry.id}?confirm=remove`} what="Removing an entry" />
          <form method="post" action={`/api/operator/entries/${entry.id}/remove`} className="mt-3 flex flex-wrap gap-2">
            <button type="submit" className={buttonClasses("danger", "sm")}>
              Yes, remove this entry
            </button>
            <a href={`/operator/entries/${entry.id}`} className={buttonClasses("outline", "sm")}>
              Keep it
            </a>
          </form>
        </section>
      )}

      <FollowUpPanel entry={detail.followUp} timeline={timeline} operators={operators} me={operator.id} zone={zone} />

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <ConsoleSection id="fields" title="What they told us" className="min-w-0 lg:col-span-2">
          <dl className="mt-3 grid gap-x-6 gap-y-3 sm:grid-cols-2">
            <div>
              <dt className="text-sm text-slate-500">Signed up</dt>
              <dd className="text-slate-900">{when(entry.created_at)}</dd>
            </div>
            <div>
              <dt className="text-sm text-slate-500">Email confirmed</dt>
              <dd className="text-slate-900">{entry.confirmed_at ? when(entry.confirmed_at) : "Not yet"}</dd>
            </div>
            <div>
              <dt className="text-sm text-slate-500">Email from us</dt>
              <dd className="text-slate-900">
                {detail.unsubscribedAt
                  ? `Unsubscribed ${when(detail.unsubscribedAt)}: nothing is emailed, an invitation neither`
                  : detail.mailSuppressed
                    ? `Bounced ${when(detail.mailSuppressed.at)} (${detail.mailSuppressed.reason ?? "refused"}): nothing is emailed until an operator lifts it (npm run waitlist -- mail unsuppress)`
                    : "Goes as usual"}
              </dd>
            </div>
            {SIGNUP_FIELD_NAMES.map((field) => (
              <div key={field} className={`min-w-0 ${field === "notes" ? "sm:col-span-2" : ""}`}>
                <dt className="text-sm text-slate-500">{SIGNUP_FIELDS[field].label}</dt>
                <dd className="wrap-anywhere whitespace-pre-line text-slate-900">
                  {entry[field] === null || entry[field] === "" ? (
                    <span className="text-slate-400">—</span>
                  ) : (
                    displayValue(field, entry[field])
                  )}
                </dd>
              </div>
            ))}
            {entry.duplicate_of !== null && (
              <div>
                <dt className="text-sm text-slate-500">Duplicate of</dt>
                <dd>
                  <a href={`/operator/entries/${entry.duplicate_of}`} className="underline">
                    entry #{entry.duplicate_of}
                  </a>
                </dd>
              </div>
            )}
          </dl>
        </ConsoleSection>

        <div className="min-w-0 space-y-6">
          <ConsoleSection id="deliveries" title="Deliveries">
            {deliveries.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600">
                Nothing was owed about this entry (no email or webhook was set up when it came).
              </p>
            ) : (
              <ul className="mt-3 space-y-3">
                {deliveries.map((d) => (
                  <li key={d.id} className="rounded-lg border border-slate-200 p-3 text-sm">
                    <div className="flex items-center justify-between gap-2">
                      <span className="font-medium">{DELIVERY_NAMES[`${d.kind}:${d.event}`] ?? `${d.kind} (${d.event})`}</span>
                      <span
                        className={
                          d.status === "failed"
                            ? "font-semibold text-red-800"
                            : d.status === "delivered"
                              ? "text-emerald-800"
                              : "text-slate-600"
                        }
                      >
                        {d.status}
                      </span>
                    </div>
                    <p className="text-slate-600">
                      {d.attempts} attempt{d.attempts === 1 ? "" : "s"}
                      {d.deliveredAt
                        ? `, delivered ${when(d.deliveredAt)}`
                        : d.status === "pending"
                          ? `, next ${when(d.nextAttemptAt)}`
                          : ""}
                    </p>
                    {d.lastError && <p className="text-slate-600">Last error: {d.lastError}</p>}
                    {d.status === "failed" && may(operator.role, "redeliver") && (
                      <form method="post" action={`/api/operator/deliveries/${encodeURIComponent(d.id)}/redeliver`} className="mt-2">
                        <button type="submit" className={buttonClasses("outline", "sm")}>
                          Send again
                        </button>
                      </form>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </ConsoleSection>

          <ConsoleSection id="updates" title="Updates">
            {updates.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600">No update to the list was sent to this entry.</p>
            ) : (
              <ul className="mt-3 space-y-2 text-sm">
                {updates.map((update) => (
                  <li key={update.id}>
                    <a href={`/operator/updates#update-${update.id}`} className="font-medium wrap-anywhere text-slate-900 underline">
                      #{update.id} {update.subject}
                    </a>
                    <div className="text-slate-500">
                      {update.deliveredAt
                        ? `sent ${when(update.deliveredAt)}`
                        : update.status === "pending"
                          ? "waiting to be sent"
                          : "not sent"}
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </ConsoleSection>

          <ConsoleSection id="trail" title="Audit trail">
            {trail.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600">No operator has acted on this entry.</p>
            ) : (
              <ul className="mt-3 space-y-2 text-sm">
                {trail.map((row) => (
                  <li key={row.id}>
                    <span className="font-medium">{row.label}</span> by {row.actor}
                    <div className="text-slate-500">{when(row.at)}</div>
                  </li>
                ))}
              </ul>
            )}
          </ConsoleSection>
        </div>
      </div>
    </ConsoleFrame>
  );
}
