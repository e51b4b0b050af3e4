/** How long a statement held the database (the slow_query log), and of that its thread's CPU and run-queue wait where known. */
export type Held = { ms: number; cpuMs?: number; queuedMs?: number };

/** "61 ms (cpu 3, queued 55)", for bench:signups' slow-query summary and bench:launch's table. */
export function heldText({ ms, cpuMs, queuedMs }: Held): string {
  const split = cpuMs === undefined ? "" : ` (cpu ${cpuMs.toFixed(0)}, queued ${(queuedMs ?? 0).toFixed(0)})`;
  return `${ms.toFixed(0)} ms${split}`;
}
