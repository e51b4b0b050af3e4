/**
 * The sign-up route (app/api/waitlist/route.ts) and the question route, built as the site builds
 * them but with a test's own settings: the same route(), guard and handler, other services.
 */
import { getDatabase, type Database } from "@/lib/db";
import { json, route } from "@/lib/http";
import type { FormPostServices, RateLimiter } from "@/lib/security/rate-limit";
import { formPost } from "@/lib/site/guards";
import { newQuestion } from "@/lib/waitlist/challenge-token";
import type { DomainLists } from "@/lib/waitlist/email-domains";
import { postSignUp, type SignUpServices } from "@/lib/waitlist/sign-up";

export type SignUpOptions = {
  secret: string;
  minSubmitMs: number;
  siteUrl: string;
  limiter: RateLimiter;
  now?: () => number;
  database?: () => Database;
  deadlineMs?: number;
  maxPendingWrites?: number;
  emailDomains?: DomainLists;
  deliverSoon?: () => void;
  afterResponse?: (work: () => void) => void;
};

/** A sign-up's services from a test's settings. */
export function signUpServices(options: SignUpOptions): SignUpServices & FormPostServices {
  return {
    secret: options.secret,
    minSubmitMs: options.minSubmitMs,
    siteOrigin: new URL(options.siteUrl).origin,
    formPosts: options.limiter,
    now: options.now ?? Date.now,
    database: options.database ?? getDatabase,
    deadlineMs: options.deadlineMs ?? 8_000,
    maxPendingWrites: options.maxPendingWrites,
    emailDomains: options.emailDomains,
    deliverSoon: options.deliverSoon,
    afterResponse: options.afterResponse,
  };
}

/** POST /api/waitlist with these settings. */
export function signUpEndpoint(options: SignUpOptions): (request: Request) => Promise<Response> {
  const services = signUpServices(options);
  return route({ guard: formPost(() => services), POST: postSignUp, otherMethods: "Use POST to join the waitlist." }).POST;
}

/** GET /api/waitlist/challenge with this secret and clock. */
export function challengeEndpoint(options: { secret: string; now: () => number }): (request: Request) => Response {
  return (request) => json(200, newQuestion(request, options));
}
