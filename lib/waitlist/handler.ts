/**
 * POST /api/waitlist and GET /api/waitlist/challenge, independent of Next.js
 * so tests can call them with a plain Request. Every path answers JSON; nothing
 * the visitor sent ends up in a stack trace or a log line.
 *
 * A sign-up passes, in order: rate limit, origin, content type, size, JSON,
 * honeypot, security question, minimum time, fields, store (docs/security.md).
 */
import { getDatabase, type Database } from "../db";
import { parseEnv } from "../env";
import { CLIENT_ADDRESS_HEADER, UNKNOWN_CLIENT } from "../security/client-address";
import { isForeignOrigin } from "../security/origin";
import { SharedRateLimiter, type RateLimiter } from "../security/rate-limit";
import { challengeSecret } from "../security/secret";
import { checkChallenge, issueChallenge, MAX_TOKEN_LENGTH } from "./challenge-token";
import { API_ERRORS, type ApiErrorCode } from "./messages";
import { fieldErrorsOf, HONEYPOT_FIELD, waitlistSignupSchema, type WaitlistSignup } from "./schema";
import { addToWaitlist, recipientKey } from "./store";
import { getDeliveryWorker } from "../outbox/instance";
import type { DeliveryKind } from "../outbox/worker";

export const MAX_BODY_BYTES = 16 * 1024;

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
  /** What is owed about each new sign-up: outbox rows written in its transaction (the webhook). */
  deliveries?: readonly DeliveryKind[];
  /** Starts delivering what is due; called after the answer has gone out. */
  deliverSoon?: () => void;
  /** Runs work once the answer has gone out: Next's after() in the route. */
  afterResponse?: (work: () => void) => void;
  database?: () => Database;
  /** The clock, in ms since the epoch; tests move it instead of waiting. */
  now?: () => number;
};

type Body = Record<string, unknown>;

function reply(status: number, body: Body, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

function refuse(status: number, code: ApiErrorCode, extra: Body = {}, headers: Record<string, string> = {}): Response {
  return reply(status, { error: API_ERRORS[code], code, ...extra }, headers);
}

/** The answer a real sign-up gets; bots that trip a check get the same, and nothing is stored. */
function accepted(): Response {
  return reply(201, { ok: true });
}

export function methodNotAllowed(allow: "POST" | "GET"): () => Response {
  return () => refuse(405, "method_not_allowed", {}, { Allow: allow });
}

function isJsonContentType(header: string | null): boolean {
  return header?.split(";")[0]?.trim().toLowerCase() === "application/json";
}

const TOO_LARGE = Symbol("too large");

/** Reads at most `limit` bytes, so an oversized body is refused without being buffered. */
async function readBody(request: Request, limit: number): Promise<string | typeof TOO_LARGE> {
  const declaredHeader = request.headers.get("content-length");
  const declared = Number(declaredHeader);
  if (Number.isFinite(declared) && declared > limit) return TOO_LARGE;
  if (!request.body) return "";
  // With a Content-Length the HTTP parser has already bounded the body: read it in one go.
  if (declaredHeader !== null && Number.isInteger(declared)) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.byteLength > limit ? TOO_LARGE : utf8(bytes);
  }

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return TOO_LARGE;
    }
    chunks.push(value);
  }
  return utf8(Buffer.concat(chunks));
}

// fatal: invalid UTF-8 is a bad request, not text with replacement characters.
const decoder = new TextDecoder("utf-8", { fatal: true });
const utf8 = (bytes: Uint8Array) => decoder.decode(bytes);

function isPlainObject(value: unknown): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Removes what a visitor typed from text headed for the server log. */
function redact(text: string, signup: WaitlistSignup): string {
  const secrets = [signup.phone, signup.notes, signup.email].filter((value): value is string => !!value);
  return secrets.reduce((result, secret) => result.split(secret).join("[redacted]"), text);
}

function logFailure(requestId: string, error: unknown, signup?: WaitlistSignup): void {
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  console.error(
    `[waitlist] sign-up failed request_id=${requestId}` +
      (typeof code === "string" ? ` code=${code}` : "") +
      (signup ? ` business_type=${signup.business_type} company_size=${signup.company_size}` : "") +
      `\n${signup ? redact(detail, signup) : detail}`,
  );
}

function logBot(reason: string): void {
  console.warn(`[waitlist] sign-up discarded as automated: ${reason}`);
}

export type SignupHandler = (request: Request, afterResponse?: (work: () => void) => void) => Promise<Response>;

export function createSignupHandler(options: SignupHandlerOptions): SignupHandler {
  const { secret, minSubmitMs, siteUrl, limiter, deliveries = [], deliverSoon, afterResponse } = options;
  const now = options.now ?? Date.now;
  const database = options.database ?? getDatabase;

  const siteOrigin = new URL(siteUrl).origin;

  return async function handleSignupRequest(request: Request, afterThisResponse = afterResponse): Promise<Response> {
    let signup: WaitlistSignup | undefined;
    try {
      // Every attempt counts, whatever becomes of it, so probing costs the same as signing up.
      const client = request.headers.get(CLIENT_ADDRESS_HEADER) ?? UNKNOWN_CLIENT;
      const decision = await limiter.attempt(client, now());
      if (!decision.allowed) {
        return refuse(429, "rate_limited", {}, { "Retry-After": String(decision.retryAfterSeconds) });
      }
      if (isForeignOrigin(request, siteOrigin)) return refuse(403, "foreign_origin");
      if (!isJsonContentType(request.headers.get("content-type"))) return refuse(415, "unsupported_media_type");

      let text: string | typeof TOO_LARGE;
      try {
        text = await readBody(request, MAX_BODY_BYTES);
      } catch (error) {
        // A TypeError here is malformed UTF-8; anything else is a broken upload.
        return refuse(400, error instanceof TypeError ? "invalid_json" : "unreadable_body");
      }
      if (text === TOO_LARGE) return refuse(413, "too_large");

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

      const result = await addToWaitlist(signup, {
        challengeId: check.id,
        deliveries,
        recipientKey: deliveries.includes("email") ? recipientKey(secret, signup.email) : null,
        database: database(),
      });
      if (result.outcome === "duplicate") return refuse(409, "already_registered");
      if (result.outcome === "challenge_used") return refuse(400, "challenge_used");
      // The deliveries are already stored with the sign-up; sending them never holds up the answer.
      if (deliveries.length > 0 && deliverSoon) (afterThisResponse ?? queueMicrotask)(deliverSoon);
      return accepted();
    } catch (error) {
      const requestId = crypto.randomUUID();
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
    return reply(200, issued);
  };
}

/** The protections and the deliveries as the environment configures them (.env.example). */
export function signupOptionsFromEnv(): SignupHandlerOptions {
  const env = parseEnv();
  const worker = getDeliveryWorker();
  return {
    deliveries: worker.deliveryKinds,
    deliverSoon: () => worker.deliverSoon(),
    secret: challengeSecret(env.WAITLIST_SECRET),
    minSubmitMs: env.WAITLIST_MIN_SUBMIT_MS,
    siteUrl: env.SITE_URL,
    limiter: new SharedRateLimiter({
      max: env.WAITLIST_RATE_LIMIT_MAX,
      windowMs: env.WAITLIST_RATE_LIMIT_WINDOW_SECONDS * 1000,
    }),
  };
}

// The running site's handlers, made on first request so that the environment
// is read at run time (never at build time) and one rate limiter serves all requests.
let siteSignupHandler: SignupHandler | undefined;
let siteChallengeHandler: ((request: Request) => Response) | undefined;

/** `afterResponse`: Next's after(), which only the route (inside a request) can call. */
export function handleSignup(request: Request, afterResponse?: (work: () => void) => void): Promise<Response> {
  siteSignupHandler ??= createSignupHandler(signupOptionsFromEnv());
  return siteSignupHandler(request, afterResponse);
}

export function handleChallenge(request: Request): Response {
  siteChallengeHandler ??= createChallengeHandler({ secret: challengeSecret(parseEnv().WAITLIST_SECRET) });
  return siteChallengeHandler(request);
}
