import type { WeekFigures } from "@/lib/follow-up/metrics";

const WIDTH = 720;
const HEIGHT = 200;
const PAD = { top: 22, right: 8, bottom: 28, left: 52 };

const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", { month: "short", day: "numeric", timeZone: "UTC" });
const percent = (share: number | null) => (share === null ? "–" : `${Math.round(share * 100)}%`);
const hours = (value: number | null) =>
  value === null ? "–" : `${Number.isInteger(value) || value >= 10 ? Math.round(value) : value.toFixed(1)} h`;

/**
 * One weekly measure as bars, drawn on the server as SVG with a dashed target
 * line; weeks without figures are left empty (no bar, "–" in the table).
 */
function WeeklyBars({
  id,
  title,
  weeks,
  valueOf,
  top,
  target,
  label,
}: {
  id: string;
  title: string;
  weeks: WeekFigures[];
  valueOf: (w: WeekFigures) => number | null;
  top: number;
  target: number;
  label: (v: number | null) => string;
}) {
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / weeks.length;
  const y = (value: number) => PAD.top + plotH - (Math.min(value, top) / top) * plotH;
  return (
    <figure className="min-w-0">
      <figcaption id={`${id}-title`} className="text-sm font-medium text-slate-800">
        {title}
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title`} className="mt-2 h-auto w-full">
        {[0, top / 2, top].map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} className="stroke-slate-200" />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" className="fill-slate-500 text-[15px]">
              {label(tick)}
            </text>
          </g>
        ))}
        {weeks.map((week, i) => {
          const value = valueOf(week);
          const x = PAD.left + i * slot + slot * 0.15;
          return (
            <g key={week.from}>
              {value !== null && (
                <rect x={x} width={slot * 0.7} y={y(value)} height={Math.max(1, PAD.top + plotH - y(value))} className="fill-sky-600" />
              )}
              {value !== null && (
                <text x={x + slot * 0.35} y={y(value) - 3} textAnchor="middle" className="fill-slate-700 text-[15px]">
                  {label(value)}
                </text>
              )}
              <text x={x + slot * 0.35} y={HEIGHT - 6} textAnchor="middle" className="fill-slate-500 text-[15px]">
                {shortDay(week.to)}
              </text>
            </g>
          );
        })}
        <line
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={y(target)}
          y2={y(target)}
          strokeDasharray="6 4"
          className="stroke-brand-700"
          strokeWidth={3}
        />
      </svg>
    </figure>
  );
}

/** The team's promise week by week (deadlines in the week ending on the date shown), with the same figures as a table. */
export function PromiseChart({ weeks }: { weeks: WeekFigures[] }) {
  const topHours = Math.max(72, ...weeks.map((w) => Math.ceil((w.medianHours ?? 0) / 24) * 24));
  return (
    <div>
      <div className="grid gap-6 md:grid-cols-2">
        <WeeklyBars
          id="share-chart"
          title="Contacted within 48 hours (dashed: all of them)"
          weeks={weeks}
          valueOf={(w) => w.shareInTime}
          top={1}
          target={1}
          label={percent}
        />
        <WeeklyBars
          id="median-chart"
          title="Median time to first contact (dashed: 48 hours)"
          weeks={weeks}
          valueOf={(w) => w.medianHours}
          top={topHours}
          target={48}
          label={hours}
        />
      </div>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer text-slate-700">The figures as a table</summary>
        <div className="overflow-x-auto">
          <table className="mt-2 w-full tabular-nums">
            <thead>
              <tr className="text-left text-slate-600">
                <th scope="col" className="py-1 pr-3 font-medium">
                  Deadlines in the week
                </th>
                <th scope="col" className="px-2 py-1 text-right font-medium">
                  Due
                </th>
                <th scope="col" className="px-2 py-1 text-right font-medium">
                  Within 48 h
                </th>
                <th scope="col" className="px-2 py-1 text-right font-medium">
                  Median first contact
                </th>
              </tr>
            </thead>
            <tbody>
              {weeks.map((w) => (
                <tr key={w.from} className="border-t border-slate-100">
                  <th scope="row" className="py-1 pr-3 text-left font-normal whitespace-nowrap">
                    {shortDay(w.from)} – {shortDay(w.to)}
                  </th>
                  <td className="px-2 py-1 text-right">{w.due}</td>
                  <td className="px-2 py-1 text-right">
                    {percent(w.shareInTime)} ({w.inTime})
                  </td>
                  <td className="px-2 py-1 text-right">{hours(w.medianHours)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}

export { hours as hoursText, percent as percentText };
