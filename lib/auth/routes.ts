/**
 * /api/auth/*: better-auth's endpoints, behind three checks of ours.
 *
 * - Only the endpoints the console uses are reachable (ALLOWED); the library has
 *   many more (user updates, account linking, session lists) that nothing here
 *   needs, and an endpoint that is not there cannot be misused.
 * - A POST from another site's page is refused before the library sees it (the
 *   library checks origins too; this does not depend on its settings).
 * - The steps that start or finish a sign-in are counted per client address by
 *   the site's shared rate limiter, like sign-ups: guesses cost the same on every
 *   instance. A temporary database fault is a 503 with Retry-After.
 */
import "server-only";
import { isTemporary } from "../db";
import { json, retryLater } from "../http";
import { errorFields, log } from "../log";
import { CLIENT_ADDRESS_HEADER } from "../security/client-address";
import { isForeignOrigin } from "../security/origin";
import { limitKeyOf, SharedRateLimiter, type RateLimiter } from "../security/rate-limit";
import { parseEnv } from "../env";
import { singleton } from "../singleton";
import { AUTH_BASE_PATH, getAuth, type Auth } from "./auth";

const ALLOWED: Record<string, ReadonlySet<string>> = {
  GET: new Set(["/get-session", "/passkey/generate-authenticate-options", "/passkey/generate-register-options", "/passkey/list-user-passkeys", "/magic-link/verify"]),
  POST: new Set(["/passkey/verify-authentication", "/passkey/verify-registration", "/sign-in/magic-link", "/sign-out"]),
};

/** The first step of each way in: counted, so a flood of attempts is cut off early. */
const COUNTED = new Set(["/passkey/generate-authenticate-options", "/passkey/generate-register-options", "/sign-in/magic-link", "/magic-link/verify"]);

/** Sign-in steps per client address per window. A person needs a handful; a script needs thousands. */
export const SIGN_IN_ATTEMPTS = 20;
export const SIGN_IN_WINDOW_SECONDS = 600;

export type AuthRouteOptions = { auth: () => Auth; siteUrl: string; limiter: RateLimiter };

export function createAuthRoute({ auth, siteUrl, limiter }: AuthRouteOptions): (request: Request) => Promise<Response> {
  const siteOrigin = new URL(siteUrl).origin;
  return async function handleAuth(request) {
    const path = new URL(request.url).pathname.slice(AUTH_BASE_PATH.length);
    if (!ALLOWED[request.method]?.has(path)) return json(404, { error: "Not found." });
    if (request.method === "POST" && isForeignOrigin(request, siteOrigin)) {
      return json(403, { error: "This request did not come from a FieldCrew page, so nothing was changed." });
    }
    try {
      if (COUNTED.has(path)) {
        const address = request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
        const decision = await limiter.attempt(`operator-sign-in ${limitKeyOf(address)}`, Date.now());
        if (!decision.allowed) {
          return json(429, { error: "Too many sign-in attempts from this network. Please wait a few minutes and try again." }, { "Retry-After": String(decision.retryAfterSeconds) });
        }
      }
      return await auth().handler(request);
    } catch (error) {
      if (isTemporary(error)) {
        log.warn({ fault: "database_unavailable", route: `${AUTH_BASE_PATH}${path}`, ...errorFields(error) }, "sign-in step answered 503");
        return json(503, { error: "Signing in is not possible just now. Please try again in a few seconds." }, retryLater());
      }
      log.error({ fault: "unexpected", route: `${AUTH_BASE_PATH}${path}`, ...errorFields(error) }, "sign-in step failed");
      return json(500, { error: "Something went wrong on our side. Please try again later." });
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
      limiter: new SharedRateLimiter({ max: SIGN_IN_ATTEMPTS, windowMs: SIGN_IN_WINDOW_SECONDS * 1000, maxPending: env.WAITLIST_MAX_PENDING_WRITES }),
    });
  })(request);
}
