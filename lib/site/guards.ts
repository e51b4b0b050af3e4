/**
 * The kinds of door a route of app/api has, each named in its route file (route() in lib/http.ts):
 *
 * - public: anyone may ask (the health check, a new security question, a one-click unsubscribe,
 *   whose token is its own key).
 * - formPost: a form post from the site's own pages (the sign-up): counted against the client's
 *   rate limit before anything is read, then its Origin checked.
 * - visitorPage: a form posted from a visitor's own page (Confirm, Remove): from our page only.
 * - bearerSecret: a machine's endpoint (the mail server's bounces): the shared secret.
 * - consoleRole: the console's guard (lib/auth/console-guard.ts): signed in, the role, a fresh
 *   sign-in for a dangerous act.
 */
import "server-only";
import { timingSafeEqual } from "node:crypto";
import { guardConsole, type ConsoleNeeds } from "../auth/console-guard";
import { SIGN_IN_PATH, type SignedInOperator } from "../auth/session";
import { ApiError, errorAnswer, seeOther, type Guard } from "../http";
import { isForeignOrigin, isFromOwnPage } from "../security/origin";
import { countFormPost, type FormPostServices } from "../security/rate-limit";

/** Anyone may ask; the handler gets the services. */
export function publicRoute<S>(services: () => S): Guard<{ services: S }> {
  return { name: "public", check: () => ({ services: services() }) };
}

/** A form post from the site's pages: counted first (a limited client costs no parsing), then its Origin. */
export function formPost<S extends FormPostServices>(services: () => S): Guard<{ services: S; deadline: number }> {
  return {
    name: "form post",
    check: async (request) => {
      const current = services();
      // Past it (wall clock), a post still waiting for its turn to be written is answered 503, unwritten.
      const deadline = Date.now() + current.deadlineMs;
      await countFormPost(request.headers, current, deadline);
      if (isForeignOrigin(request, current.siteOrigin)) throw new ApiError("foreign_origin");
      return { services: current, deadline };
    },
  };
}

/** A form posted from one of the site's own pages (a visitor's page): nothing changes for any other. */
export function visitorPage<S extends { siteOrigin: string }>(services: () => S): Guard<{ services: S }> {
  return {
    name: "visitor's page",
    check: (request) => {
      const current = services();
      if (!isFromOwnPage(request, current.siteOrigin)) throw new ApiError("foreign_origin");
      return { services: current };
    },
  };
}

/** A machine's endpoint: `Authorization: Bearer <secret>`, compared in constant time; none is taken without a secret set. */
export function bearerSecret<S>(services: () => S, secretOf: (services: S) => string | undefined): Guard<{ services: S }> {
  return {
    name: "bearer secret",
    check: (request) => {
      const current = services();
      const secret = secretOf(current);
      const given = Buffer.from(request.headers.get("authorization") ?? "");
      const expected = secret ? Buffer.from(`Bearer ${secret}`) : null;
      if (!expected || given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new ApiError("secret_required", expected ? {} : { detail: "None is set here, so nothing is taken." });
      return { services: current };
    },
  };
}

/** On every console answer that is not a page (route()'s headers): never cached, never indexed. */
export const CONSOLE_HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" };

/**
 * The console's guard as a route's (lib/auth/console-guard.ts): the signed-in operator, or its
 * refusal. A form post whose session ended goes to the sign-in page, one that needs a fresh
 * sign-in to the passkey step-up and back; `returnTo` says where a step-up comes back to.
 */
export function consoleRole(
  needs: Omit<ConsoleNeeds, "returnTo"> & { returnTo?: (request: Request) => string } = {},
): Guard<SignedInOperator> {
  const name = needs.permission ? `console: ${needs.permission}${needs.fresh ? ", fresh sign-in" : ""}` : "console: signed in";
  return {
    name,
    check: async (request) => {
      const guard = await guardConsole(request, { permission: needs.permission, fresh: needs.fresh, returnTo: needs.returnTo?.(request) });
      if ("operator" in guard) return guard.operator;
      const { refused } = guard;
      if (refused.code === "signed_out") {
        // A form post goes to the sign-in page; a program (a download's GET) reads why, as JSON.
        return request.method === "POST" ? seeOther(SIGN_IN_PATH) : errorAnswer("signed_out", { headers: CONSOLE_HEADERS });
      }
      if (refused.confirm) return seeOther(refused.confirm);
      throw new ApiError(refused.code, { detail: refused.detail });
    },
  };
}
