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
import { ApiError, hasContentType, methodNotAllowed, readBoundedText, route, type Guard } from "../http";
import { recordAction } from "../audit/trail";
import { CLIENT_ADDRESS_HEADER } from "../security/client-address";
import { isForeignToSite } from "../security/origin";
import { limitKeyOf, SharedRateLimiter, type RateLimiter } from "../security/rate-limit";
import { AUTH_BASE_PATH, COOKIE_PREFIX, type Auth } from "./auth";
import { guardConsole } from "./console-guard";
import { invitedOperator } from "./invitations";
import { passkeyName } from "./passkey-name";
import { operatorOf, type SignedInOperator } from "./session";

const REGISTER_OPTIONS = "/passkey/generate-register-options";

const ALLOWED: Record<string, ReadonlySet<string>> = {
  GET: new Set(["/get-session", "/passkey/generate-authenticate-options", "/magic-link/verify"]),
  POST: new Set([REGISTER_OPTIONS, "/passkey/verify-authentication", "/passkey/verify-registration", "/sign-in/magic-link", "/sign-out"]),
};

/** The first step of each way in: counted, so a flood of attempts is cut off early. */
const COUNTED = new Set(["/passkey/generate-authenticate-options", REGISTER_OPTIONS, "/sign-in/magic-link", "/magic-link/verify"]);

/** The endpoints that make a session: one made while another was in use replaces it. */
const SIGN_INS = new Set(["/passkey/verify-authentication", "/passkey/verify-registration", "/magic-link/verify"]);

/** Sign-in steps per client address per window. */
const SIGN_IN_ATTEMPTS = 20;
const SIGN_IN_WINDOW_SECONDS = 600;

/** Passkey options' body: at most a token (43 characters) and a passkey name. */
const MAX_OPTIONS_BODY = 2048;

const carriesSession = (request: Request) => (request.headers.get("cookie") ?? "").includes(`${COOKIE_PREFIX}.session_token=`);

/**
 * `POST generate-register-options {context?, name?}` as the library's GET, built here so the token
 * never crosses the network in a URL. An enrolment token is checked here, before the ceremony
 * starts, as well as when it ends: with a session the library would otherwise start one for the
 * signed-in operator whatever the token says.
 */
async function registerOptionsRequest(request: Request, operator: SignedInOperator | null, database: Database): Promise<Request> {
  if (!hasContentType(request, "application/json"))
    throw new ApiError("unsupported_media_type", { detail: "Send the passkey options request as JSON." });
  const text = await readBoundedText(request, MAX_OPTIONS_BODY);
  let body: unknown;
  try {
    // No body at all: a plain "add a passkey", with neither an enrolment token nor a name.
    body = typeof text === "string" ? JSON.parse(text || "{}") : undefined;
  } catch {
    body = undefined;
  }
  if (typeof body !== "object" || body === null) throw new ApiError("unreadable_body");
  const { context, name } = body as { context?: unknown; name?: unknown };
  if ((context !== undefined && typeof context !== "string") || (name !== undefined && typeof name !== "string"))
    throw new ApiError("unreadable_body");
  const kept = name === undefined ? null : passkeyName(name);
  if (kept === "too_long") throw new ApiError("passkey_name");
  if (context) {
    const invited = await invitedOperator(database, context);
    if (!invited) throw new ApiError("enrolment_link_unusable");
    if (operator && operator.id !== invited.id) throw new ApiError("enrolment_link_other_operator");
  } else {
    // Adding a passkey to a signed-in account: the console's own guard, with a fresh passkey sign-in.
    const guard = await guardConsole(request, { fresh: true, returnTo: "/operator/account" });
    if ("refused" in guard) {
      const { code, detail, confirm } = guard.refused;
      throw new ApiError(code, confirm ? { detail: "Confirm it's you, then add the passkey.", extra: { confirm } } : { detail });
    }
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
async function registrationWithKeptName(request: Request): Promise<Request> {
  const text = await readBoundedText(request, MAX_REGISTRATION_BODY);
  let body: unknown;
  try {
    body = typeof text === "string" ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (typeof body !== "object" || body === null) throw new ApiError("unreadable_body");
  const { name, ...rest } = body as { name?: unknown };
  if (name !== undefined && typeof name !== "string") throw new ApiError("unreadable_body");
  const kept = name === undefined ? null : passkeyName(name);
  if (kept === "too_long") throw new ApiError("passkey_name");
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

/** What the sign-in steps need of the site. */
export type AuthServices = { auth: () => Auth; siteOrigin: string; signIns: RateLimiter; database: () => Database };

/** A sign-in step let through: which endpoint, and the operator of the session it came with (null: none). */
type AuthStep = { services: AuthServices; path: string; operator: SignedInOperator | null };

/**
 * The guard of the sign-in steps: only the endpoints the console uses; a POST from one of the site's
 * pages; the first step of each way in counted per client address; the session rule before the
 * library reads the cookie (an idle session is deleted here).
 */
export function signInSteps(services: () => AuthServices): Guard<AuthStep> {
  return {
    name: "sign-in steps",
    check: async (request) => {
      const current = services();
      const path = new URL(request.url).pathname.slice(AUTH_BASE_PATH.length);
      if (!ALLOWED[request.method]?.has(path)) {
        if (path === REGISTER_OPTIONS)
          return methodNotAllowed(
            ["POST"],
            "Ask for passkey options with a POST; an enrolment token goes in its body, never in the address.",
          );
        throw new ApiError("not_found");
      }
      if (request.method === "POST" && isForeignToSite(request, current.siteOrigin)) throw new ApiError("foreign_origin");
      if (COUNTED.has(path)) {
        const address = request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
        const decision = await current.signIns.attempt(`operator-sign-in ${limitKeyOf(address)}`, Date.now());
        if (!decision.allowed) throw new ApiError("rate_limited", { headers: { "Retry-After": String(decision.retryAfterSeconds) } });
      }
      const operator = carriesSession(request) ? await operatorOf(request.headers, current.auth(), current.database()) : null;
      return { services: current, path, operator };
    },
  };
}

/** One sign-in step: the library's answer to it, with our rules before (a passkey's name, an enrolment link) and after. */
export async function handleAuthStep(request: Request, { services, path, operator }: AuthStep): Promise<Response> {
  let forLibrary = request;
  if (path === REGISTER_OPTIONS) forLibrary = await registerOptionsRequest(request, operator, services.database());
  if (path === "/passkey/verify-registration") forLibrary = await registrationWithKeptName(request);
  const credentialId = path === "/passkey/verify-authentication" ? await credentialIdOf(request) : undefined;
  const answer = await services.auth().handler(forLibrary);
  await afterAnswer(services.database(), path, answer, operator, credentialId);
  return answer;
}

/** For tests: the route as one function of any method. */
export function createAuthRoute(options: { auth: () => Auth; siteUrl: string; limiter: RateLimiter; database?: () => Database }) {
  const handlers = route({
    guard: signInSteps(() => ({
      auth: options.auth,
      siteOrigin: new URL(options.siteUrl).origin,
      signIns: options.limiter,
      database: options.database ?? getDatabase,
    })),
    GET: handleAuthStep,
    POST: handleAuthStep,
    otherMethods: "The console's sign-in uses GET and POST.",
  });
  return (request: Request) => handlers[request.method as keyof typeof handlers](request);
}

/** Sign-in steps per client address per window. A person needs a handful; a script needs thousands. */
export function signInLimiter(maxPending: number): SharedRateLimiter {
  return new SharedRateLimiter({ max: SIGN_IN_ATTEMPTS, windowMs: SIGN_IN_WINDOW_SECONDS * 1000, maxPending });
}
