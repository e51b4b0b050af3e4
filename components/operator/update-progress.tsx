import type { UpdateProgress } from "@/lib/updates/updates";

const count = (n: number) => n.toLocaleString("en-US");

/**
 * An update's progress: a bar of what was sent, what failed or was stopped (bounced, unsubscribed)
 * and what waits, with the figures in words beside it (the bar is a picture of them).
 */
export function UpdateProgressBar({ update }: { update: UpdateProgress }) {
  const total = Math.max(1, update.queued);
  const stopped = Math.min(update.queued, update.failed + update.bounced + update.unsubscribed);
  const part = (n: number) => `${Math.min(100, (n / total) * 100)}%`;
  const sent = Math.max(0, update.sent - update.bounced);
  return (
    <div>
      <div
        role="progressbar"
        aria-label={`Update #${update.id}: ${count(update.sent)} of ${count(update.queued)} sent`}
        aria-valuemin={0}
        aria-valuemax={update.queued}
        aria-valuenow={update.sent}
        className="flex h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="bg-emerald-600" style={{ width: part(sent) }} />
        <div className="bg-amber-500" style={{ width: part(stopped) }} />
      </div>
      <dl className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm text-slate-700">
        {(
          [
            ["Queued", update.queued],
            ["Sent", update.sent],
            ["Waiting", update.waiting],
            ["Bounced", update.bounced],
            ["Unsubscribed since", update.unsubscribed],
            ["Failed", update.failed],
          ] as const
        ).map(([label, n]) => (
          <div key={label} className="flex gap-1.5">
            <dt className="text-slate-500">{label}</dt>
            <dd className="font-semibold tabular-nums">{count(n)}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
