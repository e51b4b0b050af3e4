import { ConsoleSection } from "@/components/operator/console-frame";
import { buttonClasses } from "@/components/ui/button-styles";
import type { TimelineItem } from "@/lib/follow-up/changes";
import {
  CLOSED_REASON_LABELS,
  CLOSED_REASONS,
  deadlineOf,
  isClosedReason,
  isFollowUpState,
  NEXT_STATES,
  STATE_LABELS,
  timeLeftText,
  urgencyOf,
  type FollowUpState,
} from "@/lib/follow-up/states";
import { momentIn } from "@/lib/console/time-format";
import type { FollowUpStatus } from "@/lib/console/queries";

const field = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-2.5 py-2 text-sm";
const label = "block text-sm font-medium text-slate-700";

type Operator = { id: string; name: string; email: string };

/** "If closed, why": the reasons a closing needs, with "—" for a change that is not a closing. */
export function ClosedReasonSelect({ id, className }: { id: string; className: string }) {
  return (
    <select id={id} name="closedReason" className={className} defaultValue="">
      <option value="">—</option>
      {CLOSED_REASONS.map((reason) => (
        <option key={reason} value={reason}>
          {CLOSED_REASON_LABELS[reason]}
        </option>
      ))}
    </select>
  );
}

function describe(item: TimelineItem): string {
  if (item.kind === "note") return "Note";
  if (item.kind === "assigned") return item.assignee ? `Assigned to ${item.assignee}` : "Unassigned";
  const to = item.toState && isFollowUpState(item.toState) ? STATE_LABELS[item.toState] : item.toState;
  const reason = item.closedReason && isClosedReason(item.closedReason) ? ` (${CLOSED_REASON_LABELS[item.closedReason]})` : "";
  return `${item.fromState && isFollowUpState(item.fromState) ? STATE_LABELS[item.fromState] : item.fromState} → ${to}${reason}`;
}

/** An entry's follow-up on its console page: where it stands, the change, assignment and note forms, and its timeline. */
export function FollowUpPanel({
  entry,
  timeline,
  operators,
  me,
  zone,
}: {
  entry: FollowUpStatus;
  timeline: TimelineItem[];
  operators: Operator[];
  me: string;
  zone: string;
}) {
  const when = momentIn(zone);
  const now = new Date();
  const state: FollowUpState = isFollowUpState(entry.followUpState) ? entry.followUpState : "awaiting";
  const next = NEXT_STATES[state];
  const back = `/operator/entries/${entry.id}`;
  const assignee = operators.find((o) => o.id === entry.assignedTo);
  return (
    <ConsoleSection id="follow-up" title="Follow-up" className="mt-6">
      <dl className="mt-3 grid gap-x-6 gap-y-3 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <dt className="text-sm text-slate-500">State</dt>
          <dd className="font-semibold text-slate-900">
            {STATE_LABELS[state]}
            {state === "closed" && entry.closedReason && isClosedReason(entry.closedReason)
              ? ` (${CLOSED_REASON_LABELS[entry.closedReason]})`
              : ""}
          </dd>
          {entry.stateChangedAt && (
            <dd className="text-sm text-slate-600">
              by {entry.stateChangedBy}, {when(entry.stateChangedAt)}
            </dd>
          )}
        </div>
        <div>
          <dt className="text-sm text-slate-500">{state === "awaiting" ? "Deadline" : "First contact"}</dt>
          {state === "awaiting" ? (
            <dd className="text-slate-900">
              <strong>
                {urgencyOf(entry.createdAt, now) === "overdue"
                  ? "Overdue: "
                  : urgencyOf(entry.createdAt, now) === "due_soon"
                    ? "Due soon: "
                    : ""}
              </strong>
              {timeLeftText(entry.createdAt, now)}
              <div className="text-sm text-slate-600">{when(deadlineOf(entry.createdAt))}</div>
            </dd>
          ) : (
            <dd className="text-slate-900">{entry.firstContactedAt ? when(entry.firstContactedAt) : "Closed without contact"}</dd>
          )}
        </div>
        <div>
          <dt className="text-sm text-slate-500">Assigned to</dt>
          <dd className="text-slate-900">{assignee ? assignee.name || assignee.email : "Nobody"}</dd>
        </div>
        {entry.invitedAt && (
          <div>
            <dt className="text-sm text-slate-500">Invited</dt>
            <dd className="text-slate-900">{when(entry.invitedAt)}</dd>
          </div>
        )}
      </dl>

      <div className="mt-5 grid gap-4 lg:grid-cols-3">
        {next.length > 0 ? (
          <form method="post" action="/api/operator/follow-up" className="rounded-lg border border-slate-200 p-3 lg:col-span-2">
            <input type="hidden" name="action" value="change" />
            <input type="hidden" name="id" value={entry.id} />
            <input type="hidden" name="return" value={back} />
            <div className="grid gap-3 sm:grid-cols-2">
              <div>
                <label htmlFor="to" className={label}>
                  Change to
                </label>
                <select id="to" name="to" className={field} defaultValue={next[0]}>
                  {next.map((to) => (
                    <option key={to} value={to}>
                      {STATE_LABELS[to]}
                      {to === "invited" ? " (sends the invitation email)" : ""}
                    </option>
                  ))}
                </select>
              </div>
              <div>
                <label htmlFor="closedReason" className={label}>
                  If closed, why
                </label>
                <ClosedReasonSelect id="closedReason" className={field} />
              </div>
              <div className="sm:col-span-2">
                <label htmlFor="change-note" className={label}>
                  Note (optional, only the team sees it)
                </label>
                <textarea id="change-note" name="note" rows={2} maxLength={2000} className={field} />
              </div>
            </div>
            <button type="submit" className={buttonClasses("primary", "sm", "mt-3")}>
              Change the follow-up
            </button>
          </form>
        ) : (
          <p className="rounded-lg border border-slate-200 p-3 text-sm text-slate-700 lg:col-span-2">
            {STATE_LABELS[state]} is final: the follow-up of this entry is done. Notes can still be added.
          </p>
        )}
        <div className="space-y-4">
          <form method="post" action="/api/operator/follow-up" className="rounded-lg border border-slate-200 p-3">
            <input type="hidden" name="action" value="assign" />
            <input type="hidden" name="id" value={entry.id} />
            <input type="hidden" name="return" value={back} />
            <label htmlFor="assignee" className={label}>
              Assign to
            </label>
            <select id="assignee" name="assignee" className={field} defaultValue={entry.assignedTo ?? "none"}>
              <option value="none">Nobody</option>
              {operators.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.id === me ? `Me (${o.name || o.email})` : o.name || o.email}
                </option>
              ))}
            </select>
            <button type="submit" className={buttonClasses("outline", "sm", "mt-2")}>
              Assign
            </button>
          </form>
          <form method="post" action="/api/operator/follow-up" className="rounded-lg border border-slate-200 p-3">
            <input type="hidden" name="action" value="note" />
            <input type="hidden" name="id" value={entry.id} />
            <input type="hidden" name="return" value={back} />
            <label htmlFor="note" className={label}>
              Add a note
            </label>
            <textarea id="note" name="note" rows={2} required maxLength={2000} className={field} />
            <button type="submit" className={buttonClasses("outline", "sm", "mt-2")}>
              Add note
            </button>
          </form>
        </div>
      </div>

      <h3 className="mt-6 font-semibold text-slate-900">Timeline</h3>
      {timeline.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">Nothing yet: signed up {when(entry.createdAt)}, awaiting first contact.</p>
      ) : (
        <ol className="mt-2 space-y-3 border-l-2 border-slate-200 pl-4 text-sm">
          {timeline.map((item) => (
            <li key={item.id}>
              <div>
                <span className="font-medium text-slate-900">{describe(item)}</span> <span className="text-slate-600">by {item.actor}</span>
              </div>
              <div className="text-slate-500">{when(item.at)}</div>
              {item.note && <p className="mt-1 rounded-md bg-slate-50 p-2 whitespace-pre-line text-slate-800 wrap-anywhere">{item.note}</p>}
            </li>
          ))}
        </ol>
      )}
    </ConsoleSection>
  );
}
