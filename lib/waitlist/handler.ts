/**
 * POST /api/waitlist and GET /api/waitlist/challenge, independent of Next.js
 * so tests can call them with a plain Request. Every path answers JSON; nothing
 * the visitor sent ends up in a stack trace or a log line.
 *
 * A sign-up passes, in order: rate limit, origin, content type, size, JSON,
 * honeypot, security question, minimum time, fields, email domain, store
 * (docs/security.md). Refusals because of the address are counted (refusals.ts).
 */
import "server-only";
import { getDatabase, temporaryKind, type Database } from "../db";
import { NotWritten } from "../group-commit";
import { errorAnswer, json, hasContentType, NOT_UTF8, readBoundedText, requestIdOf, retryLater, TOO_LARGE, UNREADABLE } from "../http";
import { errorFields, log } from "../log";
import { CLIENT_ADDRESS_HEADER, UNKNOWN_CLIENT } from "../security/client-address";
import { isForeignOrigin } from "../security/origin";
import type { RateLimiter } from "../security/rate-limit";
import { checkChallenge, issueChallenge, MAX_TOKEN_LENGTH } from "./challenge-token";
import { API_ERRORS, type ApiErrorCode } from "./messages";
import { domainPolicy, refusedDomainMessage, type DomainLists } from "./email-domains";
import { domainOf } from "../mail/address";
import { countRefusal } from "./refusals";
import { fieldErrorsOf, FREE_TEXT_FIELDS, HONEYPOT_FIELD, normalizeEmail, waitlistSignupSchema, type WaitlistSignup } from "./schema";
import { addToWaitlist } from "./store";

export const MAX_BODY_BYTES = 16 * 1024;

/** Without a deadline of its own, how long a sign-up may wait to be written before it is answered 503. */
const DEFAULT_DEADLINE_MS = 8_000;

export type SignupProtection = {
  /** Signs and checks security-question tokens. */
  secret: string;
  /** Sign-ups sooner than this after the first question are treated as bots. */
  minSubmitMs: number;
  /** The site's public address; posts from other origins are refused. */
  siteUrl: string;
  limiter: RateLimiter;
};

export type SignupHandlerOptions = SignupProtection & {
  /** Starts delivering what a new sign-up is owed (./signup-deliveries.ts); called after the answer has gone out. */
  deliverSoon?: () => void;
  /** Runs work once the answer has gone out: Next's after() in the route. */
  afterResponse?: (work: () => void) => void;
  database?: () => Database;
  /** The clock, in ms since the epoch; tests move it instead of waiting. */
  now?: () => number;
  /** How long a sign-up may wait for its turn to be written (WAITLIST_REQUEST_DEADLINE_MS). */
  deadlineMs?: number;
  /** Sign-ups that may wait to be written at once (WAITLIST_MAX_PENDING_WRITES). */
  maxPendingWrites?: number;
  /** The operators' additions to the throwaway list, and their exceptions (WAITLIST_EMAIL_DOMAINS_*). */
  emailDomains?: DomainLists;
};

type Body = Record<string, unknown>;

/** A sign-up's refusal, in the words of API_ERRORS (which the dialog shares). */
function refuse(status: number, code: ApiErrorCode, extra: Body = {}, headers: Record<string, string> = {}): Response {
  return errorAnswer(status, code, API_ERRORS[code], { extra, headers });
}

/** The answer a real sign-up gets; bots that trip a check get the same, and nothing is stored. */
function accepted(): Response {
  return json(201, { ok: true });
}

function isPlainObject(value: unknown): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A temporary condition (the database is locked, full or restarting; too many
 * sign-ups waiting; the request's deadline passed before its write began):
 * nothing was stored, so the visitor can send the same sign-up again.
 */
function temporaryFailure(error: unknown): string | null {
  if (error instanceof NotWritten) return error.kind;
  return temporaryKind(error);
}

function logFailure(requestId: string, error: unknown, signup?: WaitlistSignup): void {
  // The error's message and stack come from our code and SQLite; what the visitor typed can
  // reach them only through a trigger's message, so free text is cut out before logging.
  const fields = errorFields(error);
  if (signup) {
    for (const key of ["message", "stack"] as const) {
      const value = fields.error[key];
      if (value) fields.error[key] = redactSignup(value, signup);
    }
  }
  log.error(
    {
      fault: "unexpected",
      request_id: requestId,
      ...fields,
      ...(signup ? { business_type: signup.business_type, company_size: signup.company_size } : {}),
    },
    "sign-up failed",
  );
}

/** Every value the visitor typed freely (FREE_TEXT_FIELDS, the email included) removed from `text`. */
function redactSignup(text: string, signup: WaitlistSignup): string {
  // Values of one or two characters identify nobody, and cutting them out would mangle the whole text.
  const values = FREE_TEXT_FIELDS.map((field) => signup[field]).filter(
    (value): value is string => typeof value === "string" && value.length >= 3,
  );
  return values.reduce((result, value) => result.split(value).join("[redacted]"), text);
}

function logBot(reason: string): void {
  log.warn({ bot: reason }, "sign-up discarded as automated");
}

export type SignupHandler = (request: Request, afterResponse?: (work: () => void) => void) => Promise<Response>;

export function createSignupHandler(options: SignupHandlerOptions): SignupHandler {
  const { secret, minSubmitMs, siteUrl, limiter, deliverSoon, afterResponse, emailDomains = {} } = options;
  const now = options.now ?? Date.now;
  const database = options.database ?? getDatabase;
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;

  const siteOrigin = new URL(siteUrl).origin;
  const refusedDomain = domainPolicy(emailDomains);

  return async function handleSignupRequest(request: Request, afterThisResponse = afterResponse): Promise<Response> {
    let signup: WaitlistSignup | undefined;
    // Past it (wall clock), a sign-up still waiting for its turn to be written leaves the queue unwritten (503).
    const deadline = Date.now() + deadlineMs;
    try {
      // Every attempt counts, whatever becomes of it, so probing costs the same as signing up.
      const client = request.headers.get(CLIENT_ADDRESS_HEADER) ?? UNKNOWN_CLIENT;
      const decision = await limiter.attempt(client, now(), deadline);
      if (!decision.allowed) {
        return refuse(429, "rate_limited", {}, { "Retry-After": String(decision.retryAfterSeconds) });
      }
      if (isForeignOrigin(request, siteOrigin)) return refuse(403, "foreign_origin");
      if (!hasContentType(request, "application/json")) return refuse(415, "unsupported_media_type");

      const text = await readBoundedText(request, MAX_BODY_BYTES);
      if (text === TOO_LARGE) return refuse(413, "too_large");
      if (text === UNREADABLE) return refuse(400, "unreadable_body");
      if (text === NOT_UTF8) return refuse(400, "invalid_json");

      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        return refuse(400, "invalid_json");
      }
      if (!isPlainObject(data)) return refuse(400, "not_an_object");

      // People never see the honeypot field, so anything in it was filled in by a program.
      const honeypot = data[HONEYPOT_FIELD];
      if (honeypot !== undefined && honeypot !== null && honeypot !== "") {
        logBot("honeypot field filled");
        return accepted();
      }

      const check = checkChallenge(secret, data.challenge_token, data.challenge_answer, now());
      if (!check.ok) {
        if (check.reason === "invalid") return refuse(400, "challenge_invalid");
        if (check.reason === "expired") return refuse(400, "challenge_expired");
        return refuse(400, "challenge_wrong_answer");
      }
      if (now() - check.startedAt < minSubmitMs) {
        logBot(`submitted ${now() - check.startedAt} ms after the first question`);
        return accepted();
      }

      const parsed = waitlistSignupSchema.safeParse(data);
      if (!parsed.success) return refuse(400, "invalid_fields", { fields: fieldErrorsOf(parsed.error) });
      signup = parsed.data;

      const refusal = refusedDomain(signup.email);
      if (refusal) {
        await countRefusal(database(), refusal.reason, refusal.domain);
        return refuse(400, "email_refused", { fields: { email: refusedDomainMessage(refusal) } });
      }

      const result = await addToWaitlist(signup, {
        challengeId: check.id,
        database: database(),
        deadline,
        maxPending: options.maxPendingWrites,
      });
      if (result.outcome === "duplicate") {
        await countRefusal(database(), "already_registered", domainOf(normalizeEmail(signup.email)));
        return refuse(409, "already_registered");
      }
      if (result.outcome === "challenge_used") return refuse(400, "challenge_used");
      // What the new entry is owed is written and sent behind the answer, never holding it up.
      if (deliverSoon) (afterThisResponse ?? queueMicrotask)(deliverSoon);
      return accepted();
    } catch (error) {
      const requestId = requestIdOf(request);
      const temporary = temporaryFailure(error);
      if (temporary) {
        // Nothing was stored: the batch failed as a whole, or this sign-up never reached one.
        log.warn({ fault: temporary, request_id: requestId }, "sign-up answered 503: nothing stored, the visitor may try again");
        return refuse(
          503,
          temporary === "overloaded" || temporary === "request_deadline" ? "overloaded" : "temporarily_unavailable",
          {},
          retryLater(),
        );
      }
      logFailure(requestId, error, signup);
      return refuse(500, "unexpected", { request_id: requestId });
    }
  };
}

/** GET /api/waitlist/challenge[?previous=TOKEN]: a new question, keeping the visit's start time. */
export function createChallengeHandler(options: { secret: string; now?: () => number }): (request: Request) => Response {
  const now = options.now ?? Date.now;
  return (request) => {
    const previous = new URL(request.url).searchParams.get("previous");
    const issued = issueChallenge(options.secret, now(), previous && previous.length <= MAX_TOKEN_LENGTH ? previous : null);
    return json(200, issued);
  };
}
