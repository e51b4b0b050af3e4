/**
 * Each instance's minute-by-minute look for entries that just passed their
 * deadline (lib/follow-up/overdue.ts), started by server.ts beside the delivery
 * worker (lib/periodic.ts: a failed look is tried again at the next minute). A
 * deadline is announced within about a minute of passing, never twice.
 */
import "server-only";
import { getDatabase } from "../db";
import { log } from "../log";
import type { DeliveryKind } from "../outbox/worker";
import { runPeriodically } from "../periodic";
import { raiseOverdue } from "./overdue";

const OVERDUE_LOOK_EVERY_MS = 60_000;

export function startOverdueWatch(options: { deliveries: readonly DeliveryKind[]; deliverSoon: () => void; everyMs?: number }): () => void {
  return runPeriodically({
    name: "overdue_watch",
    everyMs: options.everyMs ?? OVERDUE_LOOK_EVERY_MS,
    run: async () => {
      const raised = await raiseOverdue(getDatabase(), { deliveries: options.deliveries });
      if (raised > 0) {
        log.info({ overdue: raised }, `${raised} ${raised === 1 ? "entry" : "entries"} passed the 48-hour deadline uncontacted`);
        options.deliverSoon();
      }
    },
  });
}
