import type { UpdateProgress } from "@/lib/updates/updates";

const count = (n: number) => n.toLocaleString("en-US");

/**
 * An update's progress: a bar of what was sent (green), what will not be (amber: refused, bounced,
 * unsubscribed, removed, or cancelled) and what waits (grey), with the figures in words beside it.
 */
export function UpdateProgressBar({ update }: { update: UpdateProgress }) {
  const total = Math.max(1, update.queued);
  const notSent = update.status === "cancelled" ? update.queued - update.sent : Math.max(0, update.queued - update.sent - update.waiting);
  // Drawn with SVG attributes: the console's policy allows no inline style.
  const part = (n: number) => Math.min(100, (n / total) * 100);
  return (
    <div>
      <div
        role="progressbar"
        aria-label={`Update #${update.id}: ${count(update.sent)} of ${count(update.queued)} sent`}
        aria-valuemin={0}
        aria-valuemax={update.queued}
        aria-valuenow={update.sent}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <svg viewBox="0 0 100 1" preserveAspectRatio="none" className="block h-full w-full" aria-hidden="true">
          <rect x={0} y={0} width={part(update.sent)} height={1} className="fill-emerald-600" />
          <rect x={part(update.sent)} y={0} width={part(notSent)} height={1} className="fill-amber-500" />
        </svg>
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
