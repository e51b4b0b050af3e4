/**
 * Keeping entries for a limited time (WAITLIST_RETENTION_DAYS, stated in the privacy
 * notice): entries that joined longer ago are removed like any other removal
 * (visitor-entry.ts removeEntry: their deliveries and timeline go with them, and only
 * a count is kept), oldest first, in small batches so sign-ups never wait long behind one.
 */
import "server-only";
import type { Database } from "../db";
import { log } from "../log";
import { runPeriodically } from "../periodic";
import { getDatabase } from "../db";
import { removeEntry } from "./visitor-entry";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Once an hour is soon enough for a limit counted in days. */
const RETENTION_SWEEP_EVERY_MS = 60 * 60 * 1000;
const BATCH = 100;

/** The moment before which entries are past their time. */
export function retentionCutoff(retentionDays: number, now: Date): Date {
  return new Date(now.getTime() - retentionDays * DAY_MS);
}

/** Removes every entry that joined before the cutoff; the number removed. */
export async function removeExpiredEntries(database: Database, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = retentionCutoff(retentionDays, now);
  let removed = 0;
  for (;;) {
    const expired = await database.waitlistEntry.findMany({
      where: { createdAt: { lt: cutoff } },
      orderBy: { createdAt: "asc" },
      select: { id: true },
      take: BATCH,
    });
    for (const { id } of expired) if (await removeEntry(database, { id }, "retention", now)) removed += 1;
    if (expired.length < BATCH) return removed;
  }
}

/** server.ts: the hourly sweep, when a retention period is set. */
export function startRetentionSweep(retentionDays: number | undefined): () => void {
  if (retentionDays === undefined) return () => {};
  return runPeriodically({
    name: "retention_sweep",
    everyMs: RETENTION_SWEEP_EVERY_MS,
    run: async () => {
      const removed = await removeExpiredEntries(getDatabase(), retentionDays);
      if (removed > 0)
        log.info({ removed }, `${removed} ${removed === 1 ? "entry" : "entries"} past the ${retentionDays}-day retention removed`);
    },
  });
}
