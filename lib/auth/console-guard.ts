/**
 * The one guard of the console's changes and downloads, a route's and a Server Action's alike
 * (docs/security.md lists each check; docs/architecture.md says which of the two a change is):
 * posted from a console page (a GET with an effect: not started from another site), signed in
 * under the session rule, the role includes it, and for a dangerous act a passkey sign-in within
 * the last 10 minutes. Each refusal is worded here, once.
 */
import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { parseEnv } from "../env";
import { errorSentence, type ErrorCode } from "../http";
import { isFromOwnPage, isStartedElsewhere } from "../security/origin";
import { ADMIN_ONLY, type Permission } from "./roles";
import { operatorOf, refusalOf, SIGN_IN_PATH, type SignedInOperator } from "./session";

/** What an act needs beyond a session; `returnTo`: the console page a passkey step-up comes back to. */
export type ConsoleNeeds = { permission?: Permission; fresh?: boolean; returnTo?: string };

/**
 * Why a console act did not go ahead: a code (its sentence is the code's own, lib/http.ts), what
 * more to say, and for a step-up where to go. `message` is the whole sentence, for a form to show.
 */
type ConsoleRefusal = { code: ErrorCode; detail?: string; message: string; confirm?: string };

type GuardedRequest = { method: string; url: string; headers: Headers };

const refused = (code: ErrorCode, detail?: string, confirm?: string) => ({
  refused: { code, detail, message: errorSentence(code, detail), confirm },
});

/** The operator the act may go ahead for, or why not. */
export async function guardConsole(
  request: GuardedRequest,
  needs: ConsoleNeeds = {},
): Promise<{ operator: SignedInOperator } | { refused: ConsoleRefusal }> {
  if (request.method === "POST" && !isFromOwnPage(request, new URL(parseEnv().SITE_URL).origin)) return refused("foreign_origin");
  // A link on another site must not start a download (nor any other GET with an effect).
  if (request.method === "GET" && isStartedElsewhere(request)) return refused("started_elsewhere");
  const operator = await operatorOf(request.headers);
  const refusal = refusalOf(operator, needs);
  if (!operator || refusal?.reason === "signed_out") return refused("signed_out");
  if (refusal?.reason === "not_allowed") {
    return refused("role_not_allowed", `Yours is ${operator.role}: only an admin may ${ADMIN_ONLY[refusal.permission]}.`);
  }
  if (refusal?.reason === "not_fresh") return refused("fresh_sign_in_required", undefined, refusal.confirm);
  return { operator };
}

/**
 * The guard for a console Server Action (a form posted to the console page `needs.returnTo`): the
 * operator, or the refusal the form shows; signed out, off to the sign-in page.
 */
export async function guardConsoleAction(
  needs: ConsoleNeeds & { returnTo: string },
): Promise<{ operator: SignedInOperator } | { refused: ConsoleRefusal }> {
  const requestHeaders = await headers();
  const siteOrigin = new URL(parseEnv().SITE_URL).origin;
  const protocol = requestHeaders.get("x-forwarded-proto") ?? new URL(siteOrigin).protocol.replace(":", "");
  const url = `${protocol}://${requestHeaders.get("host") ?? "localhost"}${needs.returnTo}`;
  const outcome = await guardConsole({ method: "POST", url, headers: requestHeaders }, needs);
  if ("refused" in outcome && outcome.refused.code === "signed_out") redirect(SIGN_IN_PATH);
  return outcome;
}
