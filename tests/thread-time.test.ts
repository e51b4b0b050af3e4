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
    const spinUntil = performance.now() + 60;
    while (performance.now() < spinUntil);
    const afterSpin = read();
    // 60 ms of computing is on a CPU or, on a busy machine, ready and waiting for one.
    const spun = afterSpin.cpuMs - start.cpuMs + (afterSpin.queuedMs - start.queuedMs);
    expect(afterSpin.cpuMs).toBeGreaterThan(start.cpuMs);
    expect(spun).toBeGreaterThanOrEqual(55);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const afterSleep = read();
    expect(afterSleep.cpuMs - afterSpin.cpuMs).toBeLessThan(20);
  });
});
