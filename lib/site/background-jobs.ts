/**
 * The work an instance does besides answering requests, started once it listens and stopped in
 * order when it shuts down: the delivery worker (lib/outbox/worker.ts), the overdue watch of the
 * follow-up queue, the retention sweeps of sign-ups and visits, the search index, and scheduled
 * backups when WAITLIST_BACKUP_DIR is set.
 */
import "server-only";
import path from "node:path";
import { visitHandler } from "../analytics/site";
import { startVisitSweep } from "../analytics/sweep";
import { startBackupSchedule } from "../backup/schedule";
import { databaseSettings, type Env } from "../env";
import { startOverdueWatch } from "../follow-up/overdue-watch";
import { errorFields, log } from "../log";
import { startSearchIndexer } from "../console/search-index";
import { configuredKinds, getDeliveryWorker } from "../waitlist/deliveries";
import { startRetentionSweep } from "../waitlist/retention";

/** How long deliveries in flight get to finish when the instance stops. */
const DELIVERIES_GRACE_MS = 5_000;

export type BackgroundJobs = {
  /** Stops them all, writes the visits still queued and hands back the deliveries not attempted; never throws. */
  stop: () => Promise<void>;
};

export function startBackgroundJobs(env: Env): BackgroundJobs {
  const data = databaseSettings(env);
  const deliveries = getDeliveryWorker();
  // Picks up whatever is due, including deliveries left by an earlier run or another instance.
  deliveries.start();
  const stops = [
    startOverdueWatch({ deliveries: configuredKinds(env), deliverSoon: () => deliveries.deliverSoon() }),
    startRetentionSweep(env.WAITLIST_RETENTION_DAYS),
    startVisitSweep(env.WAITLIST_RETENTION_DAYS),
    startSearchIndexer(),
  ];
  if (env.WAITLIST_BACKUP_DIR && data.file) {
    const schedule = {
      dir: path.resolve(env.WAITLIST_BACKUP_DIR),
      intervalMinutes: env.WAITLIST_BACKUP_INTERVAL_MINUTES,
      keep: env.WAITLIST_BACKUP_KEEP,
      databaseFile: data.file,
    };
    stops.push(startBackupSchedule(schedule));
    log.info(`Backups: every ${schedule.intervalMinutes} minutes into ${schedule.dir}, the newest ${schedule.keep} kept.`);
  } else {
    log.info('Scheduled backups: off (WAITLIST_BACKUP_DIR is not set). See docs/deployment.md, "Backups".');
  }

  return {
    async stop() {
      for (const stop of stops) stop();
      // Each step goes on to the next if it fails (the database may be what is broken).
      // Beacons are answered before they are written: what is queued is written before the database closes.
      await visitHandler()
        .drain()
        .catch((error: unknown) => log.error({ fault: "visit_not_counted", ...errorFields(error) }, "queued visits could not be written"));
      await deliveries
        .stop(DELIVERIES_GRACE_MS)
        .catch((error: unknown) => log.error({ fault: "delivery_worker", ...errorFields(error) }, "handing back deliveries failed"));
    },
  };
}
