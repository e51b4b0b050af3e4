/**
 * What visit counting keeps, and for how long: the day's salt, its marks and its per-address
 * counts are deleted as soon as the UTC day is over (then nothing links a visitor hash to
 * anything); the day aggregates are kept like entries, for WAITLIST_RETENTION_DAYS when set.
 */
import "server-only";
import { getDatabase, type Database } from "../db";
import { log } from "../log";
import { runPeriodically } from "../periodic";
import { retentionCutoff } from "../waitlist/retention";
import { utcDay } from "../time";

/** Often enough that a day's salt outlives its day by minutes at most. */
const VISIT_SWEEP_EVERY_MS = 5 * 60 * 1000;

/** Deletes the salts, marks and per-address counts of days before today; the rows deleted. */
export async function forgetPastDays(database: Database, now = new Date()): Promise<number> {
  const today = utcDay(now);
  // A read first: on all but the first sweep of a day there is nothing to delete, and then no write
  // transaction holds the database (and every sign-up behind it) across its steps.
  const [{ past }] = await database.$queryRaw<[{ past: unknown }]>`
    SELECT EXISTS (SELECT 1 FROM visit_salts WHERE day < ${today}) OR EXISTS (SELECT 1 FROM visit_marks WHERE day < ${today})
        OR EXISTS (SELECT 1 FROM visit_addresses WHERE day < ${today}) AS past`;
  if (!Number(past)) return 0;
  const [salts, marks, addresses] = await database.$transaction([
    database.visitSalt.deleteMany({ where: { day: { lt: today } } }),
    database.visitMark.deleteMany({ where: { day: { lt: today } } }),
    database.visitAddress.deleteMany({ where: { day: { lt: today } } }),
  ]);
  return salts.count + marks.count + addresses.count;
}

/** Deletes the day aggregates of days wholly before the retention cutoff. */
export async function removeExpiredVisitFigures(database: Database, retentionDays: number, now = new Date()): Promise<number> {
  const firstKept = utcDay(retentionCutoff(retentionDays, now));
  const [{ expired }] = await database.$queryRaw<[{ expired: unknown }]>`
    SELECT EXISTS (SELECT 1 FROM traffic_days WHERE day < ${firstKept}) OR EXISTS (SELECT 1 FROM vital_days WHERE day < ${firstKept}) AS expired`;
  if (!Number(expired)) return 0;
  const [traffic, vitals] = await database.$transaction([
    database.trafficDay.deleteMany({ where: { day: { lt: firstKept } } }),
    database.vitalDay.deleteMany({ where: { day: { lt: firstKept } } }),
  ]);
  return traffic.count + vitals.count;
}

/** server.ts: the sweep, every few minutes. */
export function startVisitSweep(retentionDays: number | undefined): () => void {
  return runPeriodically({
    name: "visit_sweep",
    everyMs: VISIT_SWEEP_EVERY_MS,
    run: async () => {
      const database = getDatabase();
      const forgotten = await forgetPastDays(database);
      const removed = retentionDays === undefined ? 0 : await removeExpiredVisitFigures(database, retentionDays);
      if (forgotten + removed > 0) log.info({ forgotten, removed }, "past days' visitor hashes forgotten, old visit figures removed");
    },
  });
}
