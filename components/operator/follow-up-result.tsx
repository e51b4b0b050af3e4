import { isFollowUpState, refusalOf, STATE_LABELS, type FollowUpState } from "@/lib/follow-up/states";

type Result = { done?: string; changed?: string; already?: string; refused?: string; missing?: string; reason?: string; problem?: string };

const PROBLEMS: Record<string, string> = {
  none_selected: "Select at least one entry first.",
  closed_reason: "Choose why it is closed: not a fit, no answer, or asked not to be contacted.",
  change: "Choose what the entries become.",
  note: "Write the note first (up to 2,000 characters).",
  assignee: "That operator is not on the team any more; choose another.",
  missing: "That entry is not on the list any more.",
};

const count = (value: string | undefined) => (value && /^\d{1,4}$/.test(value) ? Number(value) : 0);
const entries = (n: number) => `${n} ${n === 1 ? "entry" : "entries"}`;

/**
 * What the last follow-up form did, from the counts its answer put in the page's
 * address: fixed sentences with numbers, never text taken from the address.
 */
export function FollowUpResult({ result }: { result: Result }) {
  if (result.problem) {
    const text = PROBLEMS[result.problem];
    return text ? (
      <p role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
        {text}
      </p>
    ) : null;
  }
  const sentences: string[] = [];
  if (result.done === "noted") sentences.push("Note added to the timeline.");
  else if (result.done === "assigned")
    sentences.push(
      count(result.changed) ? `${entries(count(result.changed))} assigned.` : "Nothing changed hands: they were assigned so already.",
    );
  else if (isFollowUpState(result.done)) {
    const to: FollowUpState = result.done;
    const [changed, already, refused, missing] = [
      count(result.changed),
      count(result.already),
      count(result.refused),
      count(result.missing),
    ];
    if (changed) sentences.push(`${entries(changed)} marked ${STATE_LABELS[to].toLowerCase()}.`);
    if (already)
      sentences.push(
        `${entries(already)} already ${already === 1 ? "was" : "were"} ${STATE_LABELS[to].toLowerCase()} (another operator got there first; any note was kept).`,
      );
    if (refused) {
      const reason = isFollowUpState(result.reason) ? refusalOf(result.reason, to) : undefined;
      sentences.push(`${entries(refused)} not changed${reason ? `: ${reason}` : "."} Any note given was kept.`);
    }
    if (missing) sentences.push(`${entries(missing)} no longer on the list.`);
  }
  if (sentences.length === 0) return null;
  const warn = count(result.refused) > 0 || count(result.missing) > 0;
  return (
    <p
      role="status"
      className={`mb-4 rounded-lg border p-3 text-sm ${warn ? "border-amber-200 bg-amber-50 text-amber-950" : "border-emerald-200 bg-emerald-50 text-emerald-900"}`}
    >
      {sentences.join(" ")}
    </p>
  );
}
