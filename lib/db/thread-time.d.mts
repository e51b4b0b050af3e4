/** The calling thread's time on a CPU and in the run queue, in ms (thread-time.mjs). */
export type ThreadTimes = { cpuMs: number; queuedMs: number };
export function threadTimes(): (() => ThreadTimes) | undefined;
