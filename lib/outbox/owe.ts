/**
 * Writing what is owed: outbox rows due now, in the caller's transaction, so a change and
 * its deliveries are stored together or not at all. The sign-up path writes its own rows
 * in its batched insert (lib/waitlist/store.ts); everything else owes through this.
 */
import "server-only";
import type { Database } from "../db";
import type { DeliveryKind } from "./worker";

export type OwedDelivery = {
  /** Also the delivery's id towards the receiver (webhook-id). */
  id: string;
  kind: DeliveryKind;
  entryId: number;
  /** What it is about (outbox.event), and that event's facts as JSON. */
  event: string;
  payload: string;
  /** Shares an hourly cap per key beside its kind's (an email: the recipient's domain). */
  throttleKey: string | null;
};

/** The rows in one statement (one parameter: SQLite's JSON functions unpack them). */
export async function owe(tx: Pick<Database, "$executeRaw">, rows: OwedDelivery[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO outbox (id, kind, entry_id, status, attempts, next_attempt_at, created_at, event, payload, throttle_key)
    SELECT row.value ->> 'id', row.value ->> 'kind', row.value ->> 'entryId', 'pending', 0, ${now}, ${now}, row.value ->> 'event', row.value ->> 'payload', row.value ->> 'throttleKey'
    FROM json_each(${JSON.stringify(rows)}) AS row`;
}
