/**
 * waitlist.entry.overdue: raised once for each entry that passes its 48-hour deadline
 * still awaiting contact. Every instance sweeps each minute (server.ts); one statement
 * marks the entries (overdue_at) and, with a webhook configured, writes their webhooks
 * too, so two instances sweeping at once cannot both raise one: SQLite runs their writes
 * one after the other, and the second finds the entries marked. The mark is kept with or
 * without a webhook configured, so configuring one later does not announce old deadlines.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { Prisma, whileBusy, type Database } from "../db";
import type { DeliveryKind } from "../outbox/worker";
import type { OwedDelivery } from "../outbox/owe";
import { deadlineOf, RESPONSE_MS } from "./states";

/**
 * Entries marked per transaction: a backlog (the first start on an existing list, a restore, a
 * long stop) is worked through a batch at a time, and the sign-ups waiting for the database get
 * their turn between batches (3-4 ms for 500 at a million entries).
 */
const OVERDUE_BATCH = 500;

/** The facts a waitlist.entry.overdue webhook carries. */
type OverduePayload = { at: string; deadline: string; state: "awaiting" };

/** Marks the entries whose deadline has passed uncontacted, owes their webhooks; returns how many. */
export async function raiseOverdue(
  database: Database,
  options: { deliveries: readonly DeliveryKind[]; now?: Date; batch?: number },
): Promise<number> {
  const now = options.now ?? new Date();
  const batch = options.batch ?? OVERDUE_BATCH;
  const cutoff = new Date(now.getTime() - RESPONSE_MS);
  // The partial index waitlist_entries_overdue_watch_idx holds exactly these rows, named because
  // SQLite's planner chose the (follow_up_state, created_at) index instead and read every entry
  // awaiting contact past the cutoff, announced or not: 130-290 ms at a million entries, every
  // minute, with every sign-up waiting behind it (docs/performance.md, issue 29). With it: 1-4 ms.
  const due = Prisma.sql`
    SELECT id FROM waitlist_entries INDEXED BY waitlist_entries_overdue_watch_idx
    WHERE follow_up_state = 'awaiting' AND overdue_at IS NULL AND created_at <= ${cutoff}
    ORDER BY created_at LIMIT ${batch}`;
  const owesWebhooks = options.deliveries.includes("webhook");
  let raised = 0;
  for (;;) {
    // A read first: most minutes nobody has passed the deadline, and then nothing is written.
    if (!owesWebhooks) {
      const [{ waiting }] = await database.$queryRaw<[{ waiting: unknown }]>`SELECT EXISTS (${due}) AS waiting`;
      if (!Number(waiting)) return raised;
      const count = await whileBusy(database, (db) => db.$executeRaw`UPDATE waitlist_entries SET overdue_at = ${now} WHERE id IN (${due})`);
      raised += count;
      if (count < batch) return raised;
      continue;
    }
    // With webhooks, the entries are read first, and one statement marks them and owes their
    // webhooks (the overdue_raises view's trigger): a mark is never stored without its webhook,
    // and nothing holds the database between two statements. An entry contacted or marked by
    // another instance since the read is left alone by that statement.
    const entries = await database.$queryRaw<{ id: bigint | number; created_at: Date }[]>`
      SELECT id, created_at FROM waitlist_entries WHERE id IN (${due})`;
    if (entries.length === 0) return raised;
    const owing = entries
      .map((row) => overdueWebhook(Number(row.id), new Date(row.created_at)))
      .map((row) => [row.id, row.entryId, row.payload]);
    await whileBusy(database, (db) => db.$executeRaw`INSERT INTO overdue_raises (at, owing) VALUES (${now}, ${JSON.stringify(owing)})`);
    // What this statement marked is what it owes: the webhooks it stored under the ids made here.
    // (Not the entries marked at `now`: another instance sweeping at the same millisecond marks
    // with the same time, and its entries would be counted twice.)
    const [{ marked }] = await database.$queryRaw<[{ marked: bigint | number }]>`
      SELECT count(*) AS marked FROM outbox WHERE id IN (SELECT value ->> 0 FROM json_each(${JSON.stringify(owing)}))`;
    raised += Number(marked);
    if (entries.length < batch) return raised;
  }
}

/** The waitlist.entry.overdue webhook owed for an entry made at `createdAt`. */
function overdueWebhook(entryId: number, createdAt: Date): OwedDelivery {
  const deadline = deadlineOf(createdAt).toISOString();
  const payload: OverduePayload = { at: deadline, deadline, state: "awaiting" };
  return { id: randomUUID(), kind: "webhook", entryId, event: "overdue", payload: JSON.stringify(payload), throttleKey: null };
}
