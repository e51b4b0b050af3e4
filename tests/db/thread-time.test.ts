/**
 * The calling thread's CPU and run-queue times (lib/db/thread-time.mjs), read from Linux's
 * scheduler statistics: what the slow-query log splits a slow statement's time by.
 */
import { describe, expect, it } from "vitest";
import { threadTimes } from "@/lib/db/thread-time.mjs";

describe.runIf(process.platform === "linux")("the thread's times", () => {
  it("count the time this thread spends computing, and not the time it sleeps", async () => {
    const read = threadTimes()!;
    const start = read();
    const wallStart = performance.now();
    // Compute until the thread's own CPU time says 50 ms were spent, rather than for 50 ms of the
    // clock: on a shared virtual machine the hypervisor can take the CPU away for part of any
    // wall-clock stretch, and that time is neither on a CPU nor queued in this kernel's eyes.
    // A reading in the wrong unit never gets there (too small) or gets there faster than the
    // clock allows (too large).
    let afterSpin = start;
    while (afterSpin.cpuMs - start.cpuMs < 50 && performance.now() - wallStart < 10_000) afterSpin = read();
    const wallSpent = performance.now() - wallStart;
    expect(afterSpin.cpuMs - start.cpuMs).toBeGreaterThanOrEqual(50);
    expect(afterSpin.cpuMs - start.cpuMs).toBeLessThanOrEqual(wallSpent + 1);
    expect(afterSpin.queuedMs).toBeGreaterThanOrEqual(start.queuedMs);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const afterSleep = read();
    expect(afterSleep.cpuMs - afterSpin.cpuMs).toBeLessThan(20);
  });
});
