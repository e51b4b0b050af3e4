/**
 * The running site's handlers, set up from the environment (.env.example):
 * made on first request, so the environment is read at run time (never at
 * build time), and one rate limiter serves every request of the process.
 * The routes in app/ call these; tests build their own handlers with their
 * own settings from handler.ts and visitor-entry.ts.
 */
import "server-only";
import { parseEnv } from "../env";
import { getDeliveryWorker } from "../waitlist/deliveries";
import { SharedRateLimiter } from "../security/rate-limit";
import { siteSecret } from "../security/secret";
import { singleton } from "../singleton";
import { createChallengeHandler, createSignupHandler, type SignupHandler, type SignupHandlerOptions } from "../waitlist/handler";
import { createEntryActionHandler } from "../waitlist/visitor-entry";
import { createUnsubscribeHandlers } from "../waitlist/unsubscribe";
import { firstJoinState, joinByForm, joinSource } from "../waitlist/join-form";
import type { JoinFormState } from "../waitlist/join-state";
import { visitHandler } from "../analytics/site";
import { requestLinkAgain, type LinkAgainState } from "../waitlist/link-again";
import { getDatabase } from "../db";
import { JOIN_PATH } from "../content/paths";
import { ownOrigins } from "../security/origin";
import { createBounceHandler } from "../waitlist/bounce-reports";

/** The protections, bounds and deliveries as the environment configures them. */
function signupOptionsFromEnv(): SignupHandlerOptions {
  const env = parseEnv();
  const worker = getDeliveryWorker();
  return {
    // Without a delivery configured, nothing is sent soon (the worker moves its mark each sweep).
    deliverSoon: worker.deliveryKinds.length > 0 ? () => worker.deliverSoon() : undefined,
    secret: siteSecret(),
    minSubmitMs: env.WAITLIST_MIN_SUBMIT_MS,
    siteUrl: env.SITE_URL,
    deadlineMs: env.WAITLIST_REQUEST_DEADLINE_MS,
    maxPendingWrites: env.WAITLIST_MAX_PENDING_WRITES,
    emailDomains: { allow: env.WAITLIST_EMAIL_DOMAINS_ALLOW, deny: env.WAITLIST_EMAIL_DOMAINS_DENY },
    limiter: siteRateLimiter(),
  };
}

/** The process's one limiter of form posts per client address: sign-ups and link requests count together. */
function siteRateLimiter(): SharedRateLimiter {
  return singleton("site rate limiter", () => {
    const env = parseEnv();
    return new SharedRateLimiter({
      max: env.WAITLIST_RATE_LIMIT_MAX,
      windowMs: env.WAITLIST_RATE_LIMIT_WINDOW_SECONDS * 1000,
      maxPending: env.WAITLIST_MAX_PENDING_WRITES,
    });
  });
}

/** POST /api/waitlist. `afterResponse`: Next's after(), which only the route (inside a request) can call. */
export function handleSignup(request: Request, afterResponse?: (work: () => void) => void): Promise<Response> {
  const handler = singleton<SignupHandler>("signup handler", () => createSignupHandler(signupOptionsFromEnv()));
  return handler(request, afterResponse);
}

/** GET /api/waitlist/challenge. */
export function handleChallenge(request: Request): Response {
  return singleton("challenge handler", () => createChallengeHandler({ secret: siteSecret() }))(request);
}

/** POST /api/waitlist/entry: Confirm or Remove from the visitor's own page. */
export function handleEntryAction(request: Request): Promise<Response> {
  return singleton("entry action handler", () => createEntryActionHandler({ siteUrl: parseEnv().SITE_URL, secret: siteSecret() }))(request);
}

/** POST /api/mail/bounces: a delivery status notification from the mail server (lib/waitlist/bounces.ts). */
export function handleBounce(request: Request): Promise<Response> {
  return singleton("bounce handler", () => {
    const env = parseEnv();
    return createBounceHandler({
      secret: env.MAIL_BOUNCE_SECRET,
      bounceAddress: env.MAIL_BOUNCE_ADDRESS,
      siteSecret,
      database: getDatabase,
    });
  })(request);
}

/** UNSUBSCRIBE_PATH/<token>: POST unsubscribes with one click, GET leads to the unsubscribe page. */
export function unsubscribeHandlers() {
  return singleton("unsubscribe handlers", () => createUnsubscribeHandlers({ secret: siteSecret(), database: getDatabase }));
}

/**
 * The join page's first state: a new question, and where the visitor came from (a Referer from
 * SITE_URL or from the address this request came in on counts as one of our pages).
 */
export function firstJoinStateOnSite(headers: Headers, search: URLSearchParams): JoinFormState {
  const request = { url: `http://${headers.get("host") ?? "localhost"}${JOIN_PATH}`, headers };
  const ours = ownOrigins(request, new URL(parseEnv().SITE_URL).origin);
  return firstJoinState(siteSecret(), Date.now(), joinSource(headers.get("referer"), search, ours));
}

/**
 * A post of the join form (its Server Action), answered by this process's sign-up handler.
 * A post that passed the form's own checks (joined, or refused as a whole: a duplicate, a busy
 * moment) is also the funnel's "sent", as the dialog counts it once its own checks pass; it is
 * counted after the answer, on the page the form says the visitor came from (as source_page).
 */
export async function joinOnSite(form: FormData, headers: Headers, afterResponse: (work: () => void) => void): Promise<JoinFormState> {
  const state = await joinByForm(form, { headers, handleSignup, secret: siteSecret(), now: Date.now(), afterResponse });
  if (state.outcome === "joined" || (state.message !== undefined && !state.answerError && Object.keys(state.errors).length === 0)) {
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === "string" && value ? value : undefined;
    };
    const campaign = { utm_source: field("utm_source"), utm_medium: field("utm_medium"), utm_campaign: field("utm_campaign") };
    afterResponse(() => void visitHandler().countStep(headers, "submit", field("source_page") ?? JOIN_PATH, campaign));
  }
  return state;
}

/** A post of "Email me my link again" (its Server Action): the same answer whatever the address. */
export function linkAgainOnSite(
  form: FormData,
  headers: Headers,
  afterResponse: (work: () => Promise<void>) => void,
): Promise<LinkAgainState> {
  const worker = getDeliveryWorker();
  return requestLinkAgain(form, {
    headers,
    limiter: siteRateLimiter(),
    deliveries: worker.deliveryKinds,
    deliverSoon: () => worker.deliverSoon(),
    afterResponse,
    database: getDatabase,
  });
}
