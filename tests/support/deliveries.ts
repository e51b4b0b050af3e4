import { getDatabase } from "@/lib/db";
import type { DeliveryKind } from "@/lib/outbox/worker";
import { oweNewSignups } from "@/lib/waitlist/signup-deliveries";
import { addToWaitlist, type StoreResult } from "@/lib/waitlist/store";
import type { WaitlistSignup } from "@/lib/waitlist/schema";
import { testSecret } from "./challenge";

/** A sign-up stored as the site stores it, then owed `kinds` of delivery as the site's worker owes them. */
export async function signedUpOwing(signup: WaitlistSignup, kinds: readonly DeliveryKind[]): Promise<StoreResult> {
  const result = await addToWaitlist(signup);
  await oweNewSignups(getDatabase(), kinds, testSecret());
  return result;
}
