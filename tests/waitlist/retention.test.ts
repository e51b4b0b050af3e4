/**
 * WAITLIST_RETENTION_DAYS (lib/waitlist/retention.ts) on a real SQLite file: exactly
 * the entries that joined before the cutoff go, with what was owed or sent about them
 * and their timeline; the rest stay untouched; only a count of the removals is kept.
 */
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { changeFollowUp } from "@/lib/follow-up/changes";
import { removeExpiredEntries, retentionCutoff } from "@/lib/waitlist/retention";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { validSignup } from "../fixtures/signup";
import { setUpTestDatabase } from "../support/database";
import { signedUpOwing } from "../support/deliveries";

setUpTestDatabase();

const NOW = new Date("2026-11-24T12:00:00Z");
const DAY = 24 * 60 * 60 * 1000;

/** An entry (with a webhook owed) that joined `daysAgo` days before NOW. */
async function joined(daysAgo: number): Promise<number> {
  const result = await signedUpOwing(waitlistSignupSchema.parse(validSignup()), ["webhook"]);
  if (result.outcome !== "created") throw new Error(result.outcome);
  await getDatabase().waitlistEntry.update({
    where: { id: result.entry.id },
    data: { createdAt: new Date(NOW.getTime() - daysAgo * DAY) },
  });
  return result.entry.id;
}

describe("the retention period", () => {
  it("removes exactly the entries older than it, with their deliveries and timeline, and counts them", async () => {
    const old = [await joined(400), await joined(31), await joined(30.001)];
    const kept = [await joined(29.999), await joined(2), await joined(0)];
    await changeFollowUp(
      getDatabase(),
      [old[0]!],
      { to: "contacted", note: "Called" },
      { email: "ana@fieldcrew.example", operatorId: null },
      { deliveries: ["webhook"], now: NOW },
    );

    expect(await removeExpiredEntries(getDatabase(), 30, NOW)).toBe(3);

    const remaining = await getDatabase().waitlistEntry.findMany({ select: { id: true }, orderBy: { id: "asc" } });
    expect(remaining.map((row) => row.id)).toEqual(kept);
    const owed = await getDatabase().outboxMessage.findMany({ select: { entryId: true } });
    expect(new Set(owed.map((row) => row.entryId))).toEqual(new Set(kept));
    expect(await getDatabase().followUpEvent.count({ where: { entryId: { in: old } } })).toBe(0);
    expect(await getDatabase().waitlistRemoval.count({ where: { removedBy: "retention" } })).toBe(3);
  });

  it("does nothing when no entry is old enough, and works through more than one batch", async () => {
    await joined(1);
    expect(await removeExpiredEntries(getDatabase(), 30, NOW)).toBe(0);
    const many = [];
    for (let i = 0; i < 130; i += 1) many.push(await joined(40));
    expect(await removeExpiredEntries(getDatabase(), 30, NOW)).toBe(130);
    expect(await getDatabase().waitlistEntry.count()).toBe(1);
  });

  it("puts the cutoff whole days before now", () => {
    expect(retentionCutoff(365, NOW).toISOString()).toBe("2025-11-24T12:00:00.000Z");
  });
});
