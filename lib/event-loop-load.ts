/**
 * Whether this process's main thread is saturated: busier than a share of its time (its event
 * loop's utilization) since the last look, looked at most every 250 ms. At launch volume every
 * request's worth of the main thread and of the one database connection counts, so background work
 * (the deliveries, the search index) does a little at a time while it is, and catches up after.
 */
import { performance } from "node:perf_hooks";

/** The share above which the site serves its visitors first (docs/performance.md, "Launch day"). */
export const SATURATED_ABOVE = 0.9;
const LOOK_EVERY_MS = 250;

export class EventLoopLoad {
  private mark = performance.eventLoopUtilization();
  private busy = false;

  constructor(private readonly above: number = SATURATED_ABOVE) {}

  /** Whether the main thread was busier than the share given since the last look. */
  saturated(): boolean {
    const since = performance.eventLoopUtilization(this.mark);
    if (since.idle + since.active >= LOOK_EVERY_MS) {
      this.busy = since.utilization > this.above;
      this.mark = performance.eventLoopUtilization();
    }
    return this.busy;
  }
}
