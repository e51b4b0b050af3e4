import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading, ConsoleSection } from "@/components/operator/console-frame";
import { FreshSignInNotice } from "@/components/operator/fresh-sign-in-notice";
import { RefreshWhile } from "@/components/operator/refresh-while";
import { UpdateComposer } from "@/components/operator/update-composer";
import { UpdateProgressBar } from "@/components/operator/update-progress";
import { buttonClasses } from "@/components/ui/button-styles";
import { may } from "@/lib/auth/roles";
import { requireOperator } from "@/lib/auth/session";
import { momentIn } from "@/lib/console/time-format";
import { consoleTimeZone } from "@/lib/console/time-zone";
import { BUSINESS_TYPES, COMPANY_SIZES } from "@/lib/content/signup-options";
import { getDatabase } from "@/lib/db";
import { FOLLOW_UP_STATES, STATE_LABELS } from "@/lib/follow-up/states";
import { emptyComposer } from "@/lib/updates/composer";
import { services } from "@/lib/site/services";
import { listUpdates, MAIL_OFF, statusWord, type UpdateAction, type UpdateProgress } from "@/lib/updates/updates";
import { updateFormAction } from "./actions";

export const metadata: Metadata = { title: "Updates" };

type Props = { searchParams: Promise<Record<string, string | undefined>> };

const STATES = FOLLOW_UP_STATES.map((value) => ({ value, label: STATE_LABELS[value] }));
const DONE: Record<UpdateAction, string> = { pause: "paused", resume: "resumed", cancel: "cancelled" };

/** The buttons an update's status allows. */
function actionsFor(update: UpdateProgress): UpdateAction[] {
  if (update.status === "paused") return ["resume", "cancel"];
  if (update.status === "sending" && update.waiting > 0) return ["pause", "cancel"];
  return [];
}

export default async function UpdatesPage({ searchParams }: Props) {
  const operator = await requireOperator();
  const [updates, { zone }, query] = await Promise.all([listUpdates(getDatabase()), consoleTimeZone(operator.id), searchParams]);
  const moment = momentIn(zone);
  const admin = may(operator.role, "send_update");
  const done = query.done as UpdateAction | undefined;
  return (
    <ConsoleFrame operatorEmail={operator.email} role={operator.role} current="/operator/updates">
      <RefreshWhile active={updates.some((update) => statusWord(update) === "sending")} />
      <ConsoleHeading title="Updates to the list">
        An email to everyone on the waitlist, or to part of it, sent once to each entry through the same outbox and hourly caps as every
        other email, with the one-click unsubscribe.
      </ConsoleHeading>
      <div className="space-y-6">
        <ConsoleSection id="compose" title="Write an update">
          {admin ? (
            <>
              <FreshSignInNotice session={operator} returnTo="/operator/updates" what="Sending a test or an update" />
              {!services().sender && <p className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">{MAIL_OFF}</p>}
              <div className="mt-4">
                <UpdateComposer
                  answer={updateFormAction}
                  initial={emptyComposer()}
                  choices={{ types: BUSINESS_TYPES, sizes: COMPANY_SIZES, states: STATES }}
                />
              </div>
            </>
          ) : (
            <p className="mt-3 text-sm text-slate-600">
              Only an admin can send an update. Those sent so far, and how they went, are below.
            </p>
          )}
        </ConsoleSection>
        <ConsoleSection id="sent" title="Sent updates">
          {done && DONE[done] && query.update && (
            <p role="status" className="mt-3 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900">
              Update #{query.update} is {DONE[done]}.
            </p>
          )}
          {query.unchanged && query.update && (
            <p role="status" className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
              Update #{query.update} was not changed: it is {updates.find((u) => String(u.id) === query.update)?.status ?? "gone"} already.
            </p>
          )}
          {updates.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600">No update has been sent yet.</p>
          ) : (
            <ol className="mt-4 space-y-5">
              {updates.map((update) => (
                <li key={update.id} id={`update-${update.id}`} className="rounded-lg border border-slate-200 p-4">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h3 className="font-semibold text-slate-900 wrap-anywhere">
                      #{update.id} {update.subject}
                    </h3>
                    <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700 uppercase">
                      {statusWord(update)}
                    </span>
                  </div>
                  <p className="mt-1 text-sm text-slate-600">
                    To {update.segment}. Sent by {update.createdBy}, {moment(update.createdAt)}
                    {update.changedAt && `; ${update.status} by ${update.changedBy}, ${moment(update.changedAt)}`}.
                  </p>
                  <div className="mt-3">
                    <UpdateProgressBar update={update} />
                  </div>
                  {admin && actionsFor(update).length > 0 && (
                    <form method="post" action={`/api/operator/updates/${update.id}`} className="mt-3 flex gap-2">
                      {actionsFor(update).map((action) => (
                        <button
                          key={action}
                          type="submit"
                          name="action"
                          value={action}
                          className={buttonClasses(action === "cancel" ? "danger" : "outline", "sm")}
                        >
                          {action === "pause" ? "Pause" : action === "resume" ? "Resume" : "Cancel what is not sent"}
                        </button>
                      ))}
                    </form>
                  )}
                </li>
              ))}
            </ol>
          )}
        </ConsoleSection>
      </div>
    </ConsoleFrame>
  );
}
