import type { Overview } from "@/lib/console/overview";

/** Fills for up to six series; each also has its name in the legend and the table, so colour is never the only cue. */
const FILLS = ["fill-brand-400", "fill-sky-600", "fill-emerald-600", "fill-violet-600", "fill-amber-700", "fill-slate-400"];
const SWATCHES = ["bg-brand-400", "bg-sky-600", "bg-emerald-600", "bg-violet-600", "bg-amber-700", "bg-slate-400"];

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { top: 12, right: 8, bottom: 24, left: 44 };

/** A round step for the axis: 1, 2 or 5 times a power of ten, about four lines to the top. */
function step(max: number): number {
  const rough = Math.max(1, max / 4);
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough)!;
}

const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/**
 * Sign-ups per day as stacked bars, drawn on the server as SVG (no chart script
 * in the browser). The SVG is an image with a title and a summary; the same
 * figures are in a table after it for screen readers.
 */
export function SignupsChart({ data, splitLabel }: { data: Pick<Overview, "days" | "series">; splitLabel: string }) {
  const { days, series } = data;
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + s.perDay[i]!, 0));
  const max = Math.max(1, ...totals);
  const gridStep = step(max);
  const top = Math.ceil(max / gridStep) * gridStep;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / days.length;
  const barW = Math.max(1, slot * 0.75);
  const y = (value: number) => PAD.top + plotH - (value / top) * plotH;
  const sum = totals.reduce((a, b) => a + b, 0);
  const labelEvery = Math.ceil(days.length / 6);
  const titleId = `chart-title-${days.length}`;
  const descId = `chart-desc-${days.length}`;

  return (
    <figure>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${titleId} ${descId}`} className="h-auto w-full">
        <title id={titleId}>{`Sign-ups per day, last ${days.length} days, by ${splitLabel.toLowerCase()}`}</title>
        <desc
          id={descId}
        >{`${sum.toLocaleString("en-US")} sign-ups from ${shortDay(days[0]!)} to ${shortDay(days.at(-1)!)}; the busiest day had ${max.toLocaleString("en-US")}. The table after the chart has every figure.`}</desc>
        {Array.from({ length: top / gridStep + 1 }, (_, i) => i * gridStep).map((value) => (
          <g key={value}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(value)} y2={y(value)} className="stroke-slate-200" strokeWidth={1} />
            <text x={PAD.left - 6} y={y(value) + 4} textAnchor="end" className="fill-slate-500 text-[11px]">
              {value.toLocaleString("en-US")}
            </text>
          </g>
        ))}
        {days.map((day, i) => {
          let base = 0;
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <g key={day}>
              {series.map((s, k) => {
                const value = s.perDay[i]!;
                if (value === 0) return null;
                const rect = (
                  <rect
                    key={s.key}
                    x={x}
                    width={barW}
                    y={y(base + value)}
                    height={y(base) - y(base + value)}
                    className={FILLS[k % FILLS.length]}
                  />
                );
                base += value;
                return rect;
              })}
              {i % labelEvery === 0 && (
                <text x={x + barW / 2} y={HEIGHT - 6} textAnchor="middle" className="fill-slate-500 text-[11px]">
                  {shortDay(day)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
          {series.map((s, k) => (
            <li key={s.key} className="flex items-center gap-1.5">
              <span aria-hidden="true" className={`inline-block size-3 rounded-sm ${SWATCHES[k % SWATCHES.length]}`} />
              {s.key} <span className="text-slate-500">({s.total.toLocaleString("en-US")})</span>
            </li>
          ))}
        </ul>
      </figcaption>
      {/* The wrapper is what is hidden: a table ignores the height and overflow sr-only sets, and would lengthen the page. */}
      <div className="sr-only">
        <table>
          <caption>{`Sign-ups per day by ${splitLabel.toLowerCase()}`}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((s) => (
                <th key={s.key} scope="col">
                  {s.key}
                </th>
              ))}
              <th scope="col">All</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day, i) => (
              <tr key={day}>
                <th scope="row">{day}</th>
                {series.map((s) => (
                  <td key={s.key}>{s.perDay[i]}</td>
                ))}
                <td>{totals[i]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
