/** What the update form needs of the running site: the database, the mail settings, the delivery worker. */
import "server-only";
import { getDatabase } from "../db";
import { parseEnv } from "../env";
import { senderFromEnv } from "../mail/smtp";
import { getDeliveryWorker } from "../waitlist/deliveries";

export function composerServices() {
  const env = parseEnv();
  return {
    database: getDatabase(),
    sender: senderFromEnv(env),
    siteUrl: env.SITE_URL,
    deliverSoon: () => getDeliveryWorker().deliverSoon(),
  };
}
