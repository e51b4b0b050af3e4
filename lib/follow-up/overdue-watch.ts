/**
 * Each instance's minute-by-minute look for entries that just passed their
 * deadline (lib/follow-up/overdue.ts), started by server.ts beside the delivery
 * worker. A failed look is logged and tried again at the next minute. A deadline
 * is announced within about a minute of passing, never twice.
 */
import "server-only";
import { getDatabase } from "../db";
import { errorFields, log } from "../log";
import type { DeliveryKind } from "../outbox/worker";
import { raiseOverdue } from "./overdue";

export const OVERDUE_LOOK_EVERY_MS = 60_000;

export function startOverdueWatch(options: { deliveries: readonly DeliveryKind[]; deliverSoon: () => void; everyMs?: number }): () => void {
  let running = false;
  const look = async () => {
    if (running) return;
    running = true;
    try {
      const raised = await raiseOverdue(getDatabase(), { deliveries: options.deliveries });
      if (raised > 0) {
        log.info({ overdue: raised }, `${raised} ${raised === 1 ? "entry" : "entries"} passed the 48-hour deadline uncontacted`);
        options.deliverSoon();
      }
    } catch (error) {
      log.warn({ fault: "overdue_watch", ...errorFields(error) }, "looking for overdue entries failed; trying again in a minute");
    } finally {
      running = false;
    }
  };
  // Not at start-up, where every instance already writes (the delivery worker's first claim), and
  // not in step with the other instances: the first look comes a quarter to a whole period in.
  const every = options.everyMs ?? OVERDUE_LOOK_EVERY_MS;
  let timer: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    void look();
    timer = setInterval(() => void look(), every);
    timer.unref();
  }, Math.round(every * (0.25 + Math.random() * 0.75)));
  first.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
