/**
 * Each instance's minute-by-minute look for entries that just passed their
 * deadline (lib/follow-up/overdue.ts), started by server.ts beside the delivery
 * worker. A failed look is logged and tried again at the next minute.
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
  const timer = setInterval(() => void look(), options.everyMs ?? OVERDUE_LOOK_EVERY_MS);
  timer.unref();
  void look();
  return () => clearInterval(timer);
}
