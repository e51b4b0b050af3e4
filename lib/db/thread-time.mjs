// How long the calling thread has run on a CPU, and waited for one, from Linux's per-thread
// scheduler statistics (/proc/thread-self/schedstat: nanoseconds on a CPU, nanoseconds ready but
// waiting in the run queue, time slices). The slow-query log uses it to tell a statement that kept
// the database thread busy from one whose thread was ready but got no CPU (lib/db/worker.mjs).
// Plain JavaScript: the database's worker thread loads it without tsx.
import { closeSync, openSync, readSync } from "node:fs";

/**
 * A reader of the calling thread's times, in ms: { cpuMs, queuedMs }, or undefined where the
 * kernel keeps no such statistics (another OS, a kernel without schedstat). The file is opened
 * once, from the thread that will read it (/proc/thread-self names the opener), and read again
 * at offset 0 each time: about 2 µs, cheap enough for every query.
 */
export function threadTimes() {
  let fd;
  try {
    fd = openSync("/proc/thread-self/schedstat", "r");
  } catch {
    return undefined;
  }
  const buffer = Buffer.alloc(96);
  const read = () => {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const [onCpu, queued] = buffer.toString("latin1", 0, length).split(" ");
    return { cpuMs: Number(onCpu) / 1e6, queuedMs: Number(queued) / 1e6 };
  };
  try {
    const first = read();
    if (!Number.isFinite(first.cpuMs) || !Number.isFinite(first.queuedMs)) throw new Error("unreadable");
  } catch {
    closeSync(fd);
    return undefined;
  }
  return read;
}
