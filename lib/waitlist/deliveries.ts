/**
 * This instance's delivery worker, configured by the environment (.env.example):
 * the waitlist registers its channels (the webhook, the confirmation email) with
 * the outbox's mechanics (lib/outbox/worker.ts), which know no channel of their
 * own. One channel per configured receiver. One per process: server.ts starts it and
 * the sign-up route (its own bundle, with its own copy of this module) prompts
 * it after each answer; both must reach the same worker. Before each claim the worker writes
 * what new sign-ups are owed (./signup-deliveries.ts).
 */
import "server-only";
import { hostname } from "node:os";
import path from "node:path";
import { parseEnv, type Env } from "../env";
import { SATURATED_ABOVE } from "../event-loop-load";
import { channelsInThread } from "../outbox/channel-thread";
import { DeliveryWorker, type DeliveryKind } from "../outbox/worker";
import { siteSecret } from "../security/secret";
import { singleton } from "../singleton";
import type { ChannelSettings } from "./channels";
import { owingNewSignups } from "./signup-deliveries";
import { dkimFromEnv } from "../mail/dkim";
import { recordRefusals } from "./bounces";

/** Above this share of the main thread in use, an update to the list goes out a few at a time. */
const UPDATE_QUIET_ABOVE = 0.5;

/** The name leases and logs carry: INSTANCE_ID, or the host name and process id. */
function instanceName(env: Env): string {
  return env.INSTANCE_ID ?? `${hostname()}-${process.pid}`;
}

/** The kinds of delivery the environment configures: what is owed about an entry (a sign-up, a follow-up change). */
export function configuredKinds(env: Env): DeliveryKind[] {
  const kinds: DeliveryKind[] = [];
  if (env.WAITLIST_WEBHOOK_URL && env.WAITLIST_WEBHOOK_SECRET) kinds.push("webhook");
  if (env.SMTP_URL && env.MAIL_FROM) kinds.push("email", "update");
  return kinds;
}

function deliveryWorkerFromEnv(env: Env = parseEnv()): DeliveryWorker {
  const kinds = configuredKinds(env);
  const settings: ChannelSettings = {
    webhook: kinds.includes("webhook") ? { url: env.WAITLIST_WEBHOOK_URL!, secret: env.WAITLIST_WEBHOOK_SECRET! } : undefined,
    email: kinds.includes("email")
      ? {
          smtpUrl: env.SMTP_URL!,
          from: env.MAIL_FROM!,
          secret: siteSecret(),
          siteUrl: env.SITE_URL,
          maxConnections: env.MAIL_MAX_CONNECTIONS,
          dkim: dkimFromEnv(env),
          allowPlaintextAuth: env.SMTP_ALLOW_PLAINTEXT_AUTH,
          returnPath: env.MAIL_BOUNCE_ADDRESS,
        }
      : undefined,
  };
  // Composing and sending run in a thread of lower priority than the visitors' requests.
  const thread =
    kinds.length === 0
      ? undefined
      : channelsInThread({ module: path.join(process.cwd(), "lib", "waitlist", "channels.ts"), config: settings, kinds });
  return new DeliveryWorker({
    channels: thread?.channels ?? {},
    ready: thread?.ready,
    owner: instanceName(env),
    retryDelaysMs: env.WAITLIST_DELIVERY_RETRY_SECONDS.map((seconds) => seconds * 1000),
    leaseMs: env.WAITLIST_DELIVERY_LEASE_SECONDS * 1000,
    // Updates share the mail server's caps with the other emails, and leave a tenth of the hour to
    // them: a sign-up's confirmation never waits an hour behind an update (docs/operations.md).
    hourlyCaps: { email: env.MAIL_MAX_PER_HOUR, update: updateShareOf(env.MAIL_MAX_PER_HOUR) },
    hourlyCapsPerKey: { email: env.MAIL_MAX_PER_DOMAIN_PER_HOUR, update: updateShareOf(env.MAIL_MAX_PER_DOMAIN_PER_HOUR) },
    capKinds: { email: ["email", "update"], update: ["email", "update"] },
    // Twice the mail connections, so that each connection has its next message waiting.
    maxInFlight: Math.max(100, 2 * env.MAIL_MAX_CONNECTIONS),
    owe: owingNewSignups(siteSecret()),
    // A mailbox that is gone gets nothing more; other refusals are counted as sending problems (./bounces.ts).
    onRefused: (database, refused) => recordRefusals(database, refused),
    // A saturated site serves its visitors first; what is owed goes out as soon as it eases.
    yieldAbove: SATURATED_ABOVE,
    // An update waits for a quieter site still: bulk mail nobody is waiting for (docs/performance.md).
    quietAbove: { update: UPDATE_QUIET_ABOVE },
  });
}

/** What of an hourly cap updates may take: all but a tenth, which stays for the other emails. */
function updateShareOf(cap: number): number {
  return Math.max(1, Math.floor(cap * 0.9));
}

/** What server.ts says once at start about the deliveries this instance makes. */
export function deliveriesAtStart(env: Env): string[] {
  const mail = env.SMTP_URL
    ? `Confirmation emails: on, through ${new URL(env.SMTP_URL).host}, at most ${env.MAIL_MAX_PER_HOUR} an hour, ${env.MAIL_MAX_PER_DOMAIN_PER_HOUR} to any one domain.`
    : "Confirmation emails: off (SMTP_URL is not set), so new sign-ups get no email. See docs/operations.md.";
  const webhook = env.WAITLIST_WEBHOOK_URL
    ? `Webhook: on, to ${new URL(env.WAITLIST_WEBHOOK_URL).host}.`
    : "Webhook: off (WAITLIST_WEBHOOK_URL is not set).";
  if (!env.SMTP_URL) return [mail, webhook];
  const dkim = dkimFromEnv(env);
  const signing = dkim
    ? `Mail signing: DKIM for ${dkim.domainName}, selector ${dkim.keySelector}.`
    : "Mail signing: off, so messages are not DKIM-signed and the largest mailbox providers may file them as spam. npm run waitlist -- mail dkim-key makes a key (docs/operations.md).";
  return [mail, signing, webhook];
}

/** The process's one worker (lib/singleton.ts), made on first use from the environment read at run time (never at build time). */
export function getDeliveryWorker(): DeliveryWorker {
  return singleton("delivery worker", () => deliveryWorkerFromEnv());
}
