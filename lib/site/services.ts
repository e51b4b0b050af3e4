/**
 * What the running site's routes and Server Actions need, built once per process from the
 * environment read at run time (never at build time), in one typed place: the settings, the
 * database, the form posts' rate limit, the sign-in steps' rate limit and the delivery worker.
 * Tests build their own services for the functions they call (lib/waitlist/sign-up.ts's
 * SignUpServices is the part a sign-up needs).
 */
import "server-only";
import { after } from "next/server";
import { getAuth } from "../auth/auth";
import { signInLimiter, type AuthServices } from "../auth/routes";
import { getDatabase, type Database } from "../db";
import { parseEnv, type Env } from "../env";
import { senderFromEnv, type SenderSettings } from "../mail/smtp";
import { SharedRateLimiter, type RateLimiter } from "../security/rate-limit";
import { siteSecret } from "../security/secret";
import { singleton } from "../singleton";
import type { DeliveryWorker } from "../outbox/worker";
import { getDeliveryWorker } from "../waitlist/deliveries";
import type { SignUpServices } from "../waitlist/sign-up";

type Services = SignUpServices &
  AuthServices & {
    env: Env;
    /** SITE_URL's origin: posts from other origins are refused. */
    siteOrigin: string;
    database: () => Database;
    /** Form posts per client address: sign-ups and link requests count together (WAITLIST_RATE_LIMIT_*). */
    formPosts: RateLimiter;
    /** How long a request may wait for its writes (WAITLIST_REQUEST_DEADLINE_MS). */
    deadlineMs: number;
    /** This instance's delivery worker (lib/waitlist/deliveries.ts): what it delivers, and a prompt to deliver soon. */
    deliveries: DeliveryWorker;
    /** The mail server and sender (lib/mail/smtp.ts), or null when mail is off. */
    sender: SenderSettings | null;
  };

function servicesFromEnv(): Services {
  const env = parseEnv();
  const worker = getDeliveryWorker();
  return {
    env,
    siteOrigin: new URL(env.SITE_URL).origin,
    secret: siteSecret(),
    database: getDatabase,
    now: Date.now,
    minSubmitMs: env.WAITLIST_MIN_SUBMIT_MS,
    deadlineMs: env.WAITLIST_REQUEST_DEADLINE_MS,
    maxPendingWrites: env.WAITLIST_MAX_PENDING_WRITES,
    emailDomains: { allow: env.WAITLIST_EMAIL_DOMAINS_ALLOW, deny: env.WAITLIST_EMAIL_DOMAINS_DENY },
    formPosts: new SharedRateLimiter({
      max: env.WAITLIST_RATE_LIMIT_MAX,
      windowMs: env.WAITLIST_RATE_LIMIT_WINDOW_SECONDS * 1000,
      maxPending: env.WAITLIST_MAX_PENDING_WRITES,
    }),
    // Without a delivery configured, nothing is sent soon (the worker moves its mark each sweep).
    deliverSoon: worker.deliveryKinds.length > 0 ? () => worker.deliverSoon() : undefined,
    afterResponse: after,
    deliveries: worker,
    sender: senderFromEnv(env),
    auth: getAuth,
    signIns: signInLimiter(env.WAITLIST_MAX_PENDING_WRITES),
  };
}

/** The process's services (one for server.ts and every route bundle: lib/singleton.ts). */
export function services(): Services {
  return singleton("services", servicesFromEnv);
}

/** What the update form needs (lib/updates/composer.ts), from the process's services. */
export function updateFormServices() {
  const { database, sender, env, deliveries } = services();
  return { database: database(), sender, siteUrl: env.SITE_URL, deliverSoon: () => deliveries.deliverSoon() };
}
