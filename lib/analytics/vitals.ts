/**
 * Real visitors' page speed (Core Web Vitals): the three metrics, Google's thresholds for
 * "good" and "poor", and the buckets measurements are counted in (vital_days). Percentiles
 * are read from the buckets: a bucket's upper edge stands for every value in it, so a p75 is
 * at most one step above the true one, and the thresholds are edges, so the rating is exact.
 * Browser-safe and free of imports: the console and the server both read it.
 */

export const METRICS = ["LCP", "INP", "CLS"] as const;
export type Metric = (typeof METRICS)[number];

export const DEVICES = ["phone", "desktop"] as const;
export type Device = (typeof DEVICES)[number];

type MetricInfo = {
  name: string;
  /** Values up to `good` are good, above `poor` are poor (web.dev/articles/vitals). */
  good: number;
  poor: number;
  /** Bucket width, in the metric's own unit, and how many buckets before the last (open-ended) one. */
  step: number;
  buckets: number;
  unit: "ms" | "";
};

export const METRIC_INFO: Record<Metric, MetricInfo> = {
  LCP: { name: "Largest Contentful Paint", good: 2500, poor: 4000, step: 100, buckets: 200, unit: "ms" },
  INP: { name: "Interaction to Next Paint", good: 200, poor: 500, step: 10, buckets: 200, unit: "ms" },
  CLS: { name: "Cumulative Layout Shift", good: 0.1, poor: 0.25, step: 0.01, buckets: 200, unit: "" },
};

/** The bucket a measurement is counted in: 0 holds [0, step], n holds (n·step, (n+1)·step], the last everything above. */
export function bucketOf(metric: Metric, value: number): number {
  const { step, buckets } = METRIC_INFO[metric];
  // Rounded to a millionth first, so 0.1 (a CLS exactly at the threshold) is not 0.10000000000000002.
  const steps = Math.round((value / step) * 1e6) / 1e6;
  return Math.min(buckets, Math.max(0, Math.ceil(steps) - 1));
}

/** The value a bucket stands for: its upper edge (the last bucket: its lower edge). */
export function bucketValue(metric: Metric, bucket: number): number {
  const { step, buckets } = METRIC_INFO[metric];
  const edge = bucket >= buckets ? buckets * step : (bucket + 1) * step;
  return Math.round(edge * 1e6) / 1e6;
}

export type Rating = "good" | "needs-improvement" | "poor";

export function ratingOf(metric: Metric, value: number): Rating {
  const { good, poor } = METRIC_INFO[metric];
  return value <= good ? "good" : value <= poor ? "needs-improvement" : "poor";
}

export const RATING_LABELS: Record<Rating, string> = { good: "Good", "needs-improvement": "Needs improvement", poor: "Poor" };

/** The 75th percentile of counted buckets (null without measurements): the value 75% of visits meet or beat. */
export function percentileOf(metric: Metric, counts: ReadonlyMap<number, number>, percentile = 0.75): number | null {
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.ceil(total * percentile);
  let seen = 0;
  for (const bucket of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(bucket)!;
    if (seen >= rank) return bucketValue(metric, bucket);
  }
  return null;
}

/** A value as the console shows it: "2,300 ms", "0.05". */
export function metricText(metric: Metric, value: number): string {
  return metric === "CLS" ? value.toFixed(2) : `${Math.round(value).toLocaleString("en-US")} ms`;
}
