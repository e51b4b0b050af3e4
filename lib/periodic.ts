/**
 * Background work an instance does on a schedule (server.ts starts each): the overdue
 * look, the retention sweep. Never two runs of one job at once in a process; a failed
 * run is logged and tried again next time. The first run comes a quarter to a whole
 * period after start, away from the start-up writes (the delivery worker's first claim)
 * and out of step with the other instances.
 */
import "server-only";
import { errorFields, log } from "./log";

export function runPeriodically(job: { name: string; everyMs: number; run: () => Promise<void> }): () => void {
  let running = false;
  const look = async () => {
    if (running) return;
    running = true;
    try {
      await job.run();
    } catch (error) {
      log.warn({ fault: job.name, ...errorFields(error) }, `${job.name.replaceAll("_", " ")} failed; trying again at its next turn`);
    } finally {
      running = false;
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const first = setTimeout(
    () => {
      void look();
      timer = setInterval(() => void look(), job.everyMs);
      timer.unref();
    },
    Math.round(job.everyMs * (0.25 + Math.random() * 0.75)),
  );
  first.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
