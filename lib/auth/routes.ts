/**
 * /api/auth/*: better-auth's endpoints, behind checks of ours.
 *
 * - Only the endpoints the console uses are reachable (ALLOWED); the library has
 *   many more (user updates, account linking, session lists) that nothing here
 *   needs, and an endpoint that is not there cannot be misused.
 * - A POST from another site's page is refused before the library sees it (the
 *   library checks origins too; this does not depend on its settings).
 * - The session rule (lib/auth/session.ts: removed operator, absolute limit, idle
 *   limit) runs on every request that carries a session cookie before the library
 *   reads it: an idle session is deleted here, so no library endpoint can use it.
 * - Adding a passkey to a signed-in account needs a fresh passkey sign-in
 *   (lib/auth/roles.ts). Passkey options are asked for with a POST, so an
 *   enrolment link's token travels in a body, never in a URL a log could keep.
 * - A new sign-in made while signed in (the step-up) replaces the old session;
 *   a passkey's last use is recorded; a sign-out is audited, whichever way it came.
 * - The steps that start or finish a sign-in are counted per client address by
 *   the site's shared rate limiter, like sign-ups: guesses cost the same on every
 *   instance. A temporary database fault is a 503 with Retry-After.
 */
import "server-only";
import { getDatabase, type Database } from "../db";
import { temporaryKindInRequest } from "../db/request-scope";
import { errorAnswer, hasContentType, readBoundedText, retryLater } from "../http";
import { errorFields, log } from "../log";
import { recordAction } from "../audit/trail";
import { CLIENT_ADDRESS_HEADER } from "../security/client-address";
import { isForeignToSite } from "../security/origin";
import { limitKeyOf, SharedRateLimiter, type RateLimiter } from "../security/rate-limit";
import { parseEnv } from "../env";
import { singleton } from "../singleton";
import { AUTH_BASE_PATH, COOKIE_PREFIX, ENROLMENT_LINK_UNUSABLE, FRESH_SIGN_IN_NEEDED, getAuth, type Auth } from "./auth";
import { invitedOperator } from "./invitations";
import { passkeyName, PASSKEY_NAME_TOO_LONG } from "./passkey-name";
import { operatorOf, refusalOf, type SignedInOperator } from "./session";

const REGISTER_OPTIONS = "/passkey/generate-register-options";

const ALLOWED: Record<string, ReadonlySet<string>> = {
  GET: new Set(["/get-session", "/passkey/generate-authenticate-options", "/magic-link/verify"]),
  POST: new Set([REGISTER_OPTIONS, "/passkey/verify-authentication", "/passkey/verify-registration", "/sign-in/magic-link", "/sign-out"]),
};

/** The first step of each way in: counted, so a flood of attempts is cut off early. */
const COUNTED = new Set(["/passkey/generate-authenticate-options", REGISTER_OPTIONS, "/sign-in/magic-link", "/magic-link/verify"]);

/** The endpoints that make a session: one made while another was in use replaces it. */
const SIGN_INS = new Set(["/passkey/verify-authentication", "/passkey/verify-registration", "/magic-link/verify"]);

/** Sign-in steps per client address per window. A person needs a handful; a script needs thousands. */
const SIGN_IN_ATTEMPTS = 20;
const SIGN_IN_WINDOW_SECONDS = 600;

/** Passkey options' body: at most a token (43 characters) and a passkey name. */
const MAX_OPTIONS_BODY = 2048;

type AuthRouteOptions = { auth: () => Auth; siteUrl: string; limiter: RateLimiter; database?: () => Database };

const carriesSession = (request: Request) => (request.headers.get("cookie") ?? "").includes(`${COOKIE_PREFIX}.session_token=`);

/**
 * `POST generate-register-options {context?, name?}` as the library's GET, built here so the token
 * never crosses the network in a URL. An enrolment token is checked here, before the ceremony
 * starts, as well as when it ends: with a session the library would otherwise start one for the
 * signed-in operator whatever the token says.
 */
async function registerOptionsRequest(
  request: Request,
  operator: SignedInOperator | null,
  database: Database,
): Promise<Request | Response> {
  if (!hasContentType(request, "application/json"))
    return errorAnswer(415, "unsupported_media_type", "Send the passkey options request as JSON.");
  const text = await readBoundedText(request, MAX_OPTIONS_BODY);
  let body: unknown;
  try {
    body = typeof text === "string" ? JSON.parse(text || "{}") : undefined;
  } catch {
    body = undefined;
  }
  if (typeof body !== "object" || body === null) return errorAnswer(400, "unreadable_body", "That request could not be read.");
  const { context, name } = body as { context?: unknown; name?: unknown };
  if ((context !== undefined && typeof context !== "string") || (name !== undefined && typeof name !== "string"))
    return errorAnswer(400, "unreadable_body", "That request could not be read.");
  const kept = name === undefined ? null : passkeyName(name);
  if (kept === "too_long") return errorAnswer(400, "passkey_name", PASSKEY_NAME_TOO_LONG);
  if (context) {
    const invited = await invitedOperator(database, context);
    if (!invited) return errorAnswer(400, "enrolment_link_unusable", ENROLMENT_LINK_UNUSABLE);
    if (operator && operator.id !== invited.id) {
      return errorAnswer(
        403,
        "enrolment_link_other_operator",
        "This enrolment link is for another operator. Sign out of the console first, then open the link again.",
      );
    }
  } else {
    // Adding a passkey to a signed-in account: the session rule has run; now the freshness.
    const refusal = refusalOf(operator, { fresh: true, returnTo: "/operator/account" });
    if (refusal?.reason === "signed_out") return errorAnswer(401, "signed_out", "Sign in to the console first.");
    if (refusal?.reason === "not_fresh")
      return errorAnswer(403, "fresh_sign_in_required", FRESH_SIGN_IN_NEEDED, { extra: { confirm: refusal.confirm } });
  }
  const url = new URL(request.url);
  if (context) url.searchParams.set("context", context);
  if (kept) url.searchParams.set("name", kept);
  const headers = new Headers(request.headers);
  headers.delete("content-type");
  headers.delete("content-length");
  return new Request(url, { method: "GET", headers });
}

/** The largest verify-registration body a browser sends (an attestation is a few KiB). */
const MAX_REGISTRATION_BODY = 64 * 1024;

/** `POST verify-registration {response, name?}` with the name kept by the passkey-name rule (the library stores the body's name as it is). */
async function registrationWithKeptName(request: Request): Promise<Request | Response> {
  const text = await readBoundedText(request, MAX_REGISTRATION_BODY);
  let body: unknown;
  try {
    body = typeof text === "string" ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (typeof body !== "object" || body === null) return errorAnswer(400, "unreadable_body", "That request could not be read.");
  const { name, ...rest } = body as { name?: unknown };
  if (name !== undefined && typeof name !== "string") return errorAnswer(400, "unreadable_body", "That request could not be read.");
  const kept = name === undefined ? null : passkeyName(name);
  if (kept === "too_long") return errorAnswer(400, "passkey_name", PASSKEY_NAME_TOO_LONG);
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  return new Request(request.url, { method: "POST", headers, body: JSON.stringify(kept ? { ...rest, name: kept } : rest) });
}

/** A credential id from a passkey sign-in's body (to record the passkey's last use), if there is one. */
async function credentialIdOf(request: Request): Promise<string | undefined> {
  try {
    const body = (await request.clone().json()) as { response?: { id?: unknown } };
    return typeof body.response?.id === "string" ? body.response.id : undefined;
  } catch {
    return undefined;
  }
}

const madeSession = (answer: Response) =>
  answer.headers.getSetCookie().some((cookie) => cookie.includes(".session_token=") && !/Max-Age=0/i.test(cookie));

/** What follows a library answer: the replaced session ended, the passkey's use recorded, a sign-out audited. */
async function afterAnswer(
  database: Database,
  path: string,
  answer: Response,
  before: SignedInOperator | null,
  credentialId: string | undefined,
): Promise<void> {
  const now = new Date();
  if (SIGN_INS.has(path) && answer.status < 400 && madeSession(answer)) {
    if (before) await database.operatorSession.deleteMany({ where: { id: before.sessionId } });
    if (credentialId) await database.operatorPasskey.updateMany({ where: { credentialID: credentialId }, data: { lastUsedAt: now } });
    if (path === "/passkey/verify-registration") {
      const created = (await answer
        .clone()
        .json()
        .catch(() => null)) as { id?: unknown } | null;
      if (typeof created?.id === "string")
        await database.operatorPasskey.updateMany({ where: { id: created.id }, data: { lastUsedAt: now } });
    }
  }
  if (path === "/sign-out" && answer.ok && before)
    await recordAction(database, { actor: before.actor, action: "sign_out", detail: { via: "auth endpoint" }, at: now });
}

export function createAuthRoute({
  auth,
  siteUrl,
  limiter,
  database = getDatabase,
}: AuthRouteOptions): (request: Request) => Promise<Response> {
  const siteOrigin = new URL(siteUrl).origin;
  return async function handleAuth(request) {
    const path = new URL(request.url).pathname.slice(AUTH_BASE_PATH.length);
    if (!ALLOWED[request.method]?.has(path)) {
      if (path === REGISTER_OPTIONS)
        return errorAnswer(
          405,
          "method_not_allowed",
          "Ask for passkey options with a POST; an enrolment token goes in its body, never in the address.",
          { headers: { Allow: "POST" } },
        );
      return errorAnswer(404, "not_found", "Not found.");
    }
    if (request.method === "POST" && isForeignToSite(request, siteOrigin)) {
      return errorAnswer(403, "foreign_origin", "This request did not come from a FieldCrew page, so nothing was changed.");
    }
    try {
      if (COUNTED.has(path)) {
        const address = request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
        const decision = await limiter.attempt(`operator-sign-in ${limitKeyOf(address)}`, Date.now());
        if (!decision.allowed) {
          return errorAnswer(429, "rate_limited", "Too many sign-in attempts from this network. Please wait a few minutes and try again.", {
            headers: { "Retry-After": String(decision.retryAfterSeconds) },
          });
        }
      }
      // The session rule, before the library reads the cookie (an idle session is deleted here).
      const operator = carriesSession(request) ? await operatorOf(request.headers, auth(), database()) : null;
      let forLibrary = request;
      if (path === REGISTER_OPTIONS || path === "/passkey/verify-registration") {
        const rewritten =
          path === REGISTER_OPTIONS ? await registerOptionsRequest(request, operator, database()) : await registrationWithKeptName(request);
        if (rewritten instanceof Response) return rewritten;
        forLibrary = rewritten;
      }
      const credentialId = path === "/passkey/verify-authentication" ? await credentialIdOf(request) : undefined;
      const answer = await auth().handler(forLibrary);
      await afterAnswer(database(), path, answer, operator, credentialId);
      return answer;
    } catch (error) {
      // The library wraps its database's error in one of its own: the request's scope still knows.
      if (temporaryKindInRequest(error)) {
        log.warn({ fault: "database_unavailable", route: `${AUTH_BASE_PATH}${path}`, ...errorFields(error) }, "sign-in step answered 503");
        return errorAnswer(503, "temporarily_unavailable", "Signing in is not possible just now. Please try again in a few seconds.", {
          headers: retryLater(),
        });
      }
      log.error({ fault: "unexpected", route: `${AUTH_BASE_PATH}${path}`, ...errorFields(error) }, "sign-in step failed");
      return errorAnswer(500, "unexpected", "Something went wrong on our side. Please try again later.");
    }
  };
}

/** The running site's route (app/api/auth/[...all]/route.ts). */
export function handleAuthRequest(request: Request): Promise<Response> {
  return singleton("auth route", () => {
    const env = parseEnv();
    return createAuthRoute({
      auth: getAuth,
      siteUrl: env.SITE_URL,
      limiter: new SharedRateLimiter({
        max: SIGN_IN_ATTEMPTS,
        windowMs: SIGN_IN_WINDOW_SECONDS * 1000,
        maxPending: env.WAITLIST_MAX_PENDING_WRITES,
      }),
    });
  })(request);
}
