/**
 * The main thread's load gauge (lib/event-loop-load.ts) that the delivery worker and the search
 * index yield to: saturated after a stretch of the event loop busy on end, not after a stretch idle.
 */
import { performance } from "node:perf_hooks";
import { expect, it } from "vitest";
import { EventLoopLoad } from "@/lib/event-loop-load";

const busyFor = (ms: number) => {
  for (const until = performance.now() + ms; performance.now() < until;);
};
const idleFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("says saturated after the event loop was busy on end, and not after it idled", async () => {
  const load = new EventLoopLoad();
  busyFor(300);
  expect(load.saturated()).toBe(true);
  // Looked at most every 250 ms: right after a look, the answer stands. (A short pause, so that a
  // timer late on a busy machine still falls within the 250 ms.)
  await idleFor(5);
  expect(load.saturated()).toBe(true);
  // Idle now. One look normally says so; on a machine starved of CPU (or with other work in this
  // test process) a single stretch can still count as busy, so it gets a few stretches to say so.
  let looks = 1;
  await idleFor(300);
  while (load.saturated() && looks < 10) {
    looks += 1;
    await idleFor(300);
  }
  expect(load.saturated(), `still saturated after ${looks} idle stretches of 300 ms`).toBe(false);
  busyFor(300);
  expect(load.saturated()).toBe(true);
});
