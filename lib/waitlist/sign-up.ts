/**
 * A sign-up, in four steps a reader can open one after another:
 *
 *   1. app/api/waitlist/route.ts (the dialog's JSON) or app/(site)/join/actions.ts (the form
 *      without script): the guard counts the post against the client's rate limit, then signUp().
 *   2. signUp() here: the honeypot, the security question, the minimum time, the fields, the email
 *      domain; then the store.
 *   3. addToWaitlist() in ./store.ts: the sign-up joins the group commit (lib/group-commit.ts),
 *      which writes everything that arrived in one turn of the event loop as one INSERT.
 *   4. That INSERT runs on the database thread (lib/db/worker-connection.ts), which owns SQLite.
 *
 * A refusal is thrown as ApiError, which the route answers and the join page shows; nothing the
 * visitor sent ends up in a stack trace or a log line (docs/security.md).
 */
import "server-only";
import type { Database } from "../db";
import { ApiError, json, readJsonObject, requestIdOf, temporaryFault } from "../http";
import { errorFields, log } from "../log";
import { domainOf } from "../mail/address";
import { checkChallenge } from "./challenge-token";
import { domainPolicy, refusedDomainMessage, type DomainLists } from "./email-domains";
import { countRefusal } from "./refusals";
import { fieldErrorsOf, FREE_TEXT_FIELDS, HONEYPOT_FIELD, normalizeEmail, waitlistSignupSchema, type WaitlistSignup } from "./schema";
import { addToWaitlist } from "./store";

/** The largest sign-up body the route reads. */
export const SIGN_UP_MAX_BYTES = 16 * 1024;

/** What a sign-up needs of the site (lib/site/services.ts builds the running site's; tests build their own). */
export type SignUpServices = {
  /** Signs and checks security-question tokens. */
  secret: string;
  /** Sign-ups sooner than this after the visit's first question are treated as bots. */
  minSubmitMs: number;
  database: () => Database;
  /** The clock, in ms since the epoch; tests move it instead of waiting. */
  now: () => number;
  /** Sign-ups that may wait to be written at once (WAITLIST_MAX_PENDING_WRITES). */
  maxPendingWrites?: number;
  /** The operators' additions to the throwaway list, and their exceptions (WAITLIST_EMAIL_DOMAINS_*). */
  emailDomains?: DomainLists;
  /** Starts delivering what a new entry is owed (./signup-deliveries.ts), after the answer. */
  deliverSoon?: () => void;
  /** Runs work once the answer has gone out: Next's after() on the site. */
  afterResponse?: (work: () => void) => void;
};

/**
 * The fields as sent; `deadline` (ms since 1970): past it, a sign-up still waiting for its write is
 * answered 503, unwritten; `requestId`: the request's, in the log line and answer of a failure.
 */
type SignUpInput = { data: Record<string, unknown>; deadline: number; requestId?: string };

/** "created": stored; "discarded": a bot that tripped a check gets the same answer, and nothing is stored. */
type SignedUp = { outcome: "created"; entryId: number } | { outcome: "discarded" };

/** Step 2: a sign-up's checks, in order, then the store. */
export async function signUp({ data, deadline, requestId }: SignUpInput, services: SignUpServices): Promise<SignedUp> {
  const now = services.now();
  // People never see the honeypot field, so anything in it was filled in by a program.
  const honeypot = data[HONEYPOT_FIELD];
  if (honeypot !== undefined && honeypot !== null && honeypot !== "") return discarded("honeypot field filled");

  const check = checkChallenge(services.secret, data.challenge_token, data.challenge_answer, now);
  if (!check.ok) {
    throw new ApiError(
      check.reason === "invalid" ? "challenge_invalid" : check.reason === "expired" ? "challenge_expired" : "challenge_wrong_answer",
    );
  }
  if (now - check.startedAt < services.minSubmitMs) return discarded(`submitted ${now - check.startedAt} ms after the first question`);

  const parsed = waitlistSignupSchema.safeParse(data);
  if (!parsed.success) throw new ApiError("invalid_fields", { extra: { fields: fieldErrorsOf(parsed.error) } });
  const signup = parsed.data;

  const refusal = domainPolicy(services.emailDomains)(signup.email);
  if (refusal) {
    await countRefusal(services.database(), refusal.reason, refusal.domain);
    throw new ApiError("email_refused", { extra: { fields: { email: refusedDomainMessage(refusal) } } });
  }

  const stored = await store(signup, { challengeId: check.id, deadline, requestId }, services);
  if (stored.outcome === "duplicate") {
    await countRefusal(services.database(), "already_registered", domainOf(normalizeEmail(signup.email)));
    throw new ApiError("already_registered");
  }
  if (stored.outcome === "challenge_used") throw new ApiError("challenge_used");
  // What the new entry is owed is written and sent behind the answer, never holding it up.
  if (services.deliverSoon) (services.afterResponse ?? queueMicrotask)(services.deliverSoon);
  return { outcome: "created", entryId: stored.entry.id };
}

/** Step 3, with the sign-up's own log line for a failure that is not a refusal: its free text cut out. */
async function store(
  signup: WaitlistSignup,
  { challengeId, deadline, requestId }: { challengeId: string; deadline: number; requestId?: string },
  services: SignUpServices,
) {
  try {
    return await addToWaitlist(signup, { challengeId, database: services.database(), deadline, maxPending: services.maxPendingWrites });
  } catch (error) {
    // A temporary fault is the route's to answer (503); anything else may carry what the visitor
    // typed (a trigger's message), so it is logged here, redacted, and answered as unexpected.
    if (temporaryFault(error)) throw error;
    const fields = errorFields(error);
    for (const key of ["message", "stack"] as const) {
      const value = fields.error[key];
      if (value) fields.error[key] = redactSignup(value, signup);
    }
    log.error(
      { fault: "unexpected", request_id: requestId, ...fields, business_type: signup.business_type, company_size: signup.company_size },
      "sign-up failed",
    );
    throw new ApiError("unexpected", requestId ? { extra: { request_id: requestId } } : {});
  }
}

/** Every value the visitor typed freely (FREE_TEXT_FIELDS, the email included) removed from `text`. */
function redactSignup(text: string, signup: WaitlistSignup): string {
  // Values of one or two characters identify nobody, and cutting them out would mangle the whole text.
  const values = FREE_TEXT_FIELDS.map((field) => signup[field]).filter(
    (value): value is string => typeof value === "string" && value.length >= 3,
  );
  return values.reduce((result, value) => result.split(value).join("[redacted]"), text);
}

function discarded(reason: string): SignedUp {
  log.warn({ bot: reason }, "sign-up discarded as automated");
  return { outcome: "discarded" };
}

/** POST /api/waitlist under the form-post guard: the dialog's JSON, then step 2. A bot gets the same 201. */
export async function postSignUp(request: Request, context: { services: SignUpServices; deadline: number }): Promise<Response> {
  const data = await readJsonObject(request, SIGN_UP_MAX_BYTES);
  await signUp({ data, deadline: context.deadline, requestId: requestIdOf(request) }, context.services);
  return json(201, { ok: true });
}
