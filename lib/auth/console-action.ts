/**
 * The checks of a console Server Action (a form posted to a console page), the
 * same as the console's routes make (lib/operator/console-routes.ts): from our own
 * page (Sec-Fetch-Site/Origin; Next's own check lets a post without Origin through),
 * signed in under the session rule, the role, and a fresh passkey sign-in for a
 * dangerous act. docs/security.md lists each.
 */
import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { parseEnv } from "../env";
import { isFromOwnPage } from "../security/origin";
import { ADMIN_ONLY, type Permission } from "./roles";
import { operatorOf, refusalOf, SIGN_IN_PATH, type SignedInOperator } from "./session";

export const NOT_FROM_CONSOLE = "This request did not come from a console page, so nothing was changed.";

/** Why the action did not run, in words the form shows, and the step-up page's address when that is the way on. */
export type ActionRefused = { refused: string; confirm?: string };

export async function consoleActionOperator(needs: { permission?: Permission; fresh?: boolean; returnTo: string }): Promise<SignedInOperator | ActionRefused> {
  const requestHeaders = await headers();
  const host = requestHeaders.get("host") ?? "localhost";
  const siteOrigin = new URL(parseEnv().SITE_URL).origin;
  const protocol = requestHeaders.get("x-forwarded-proto") ?? new URL(siteOrigin).protocol.replace(":", "");
  if (!isFromOwnPage({ url: `${protocol}://${host}${needs.returnTo}`, headers: requestHeaders }, siteOrigin)) return { refused: NOT_FROM_CONSOLE };
  const operator = await operatorOf(requestHeaders);
  const refusal = refusalOf(operator, needs);
  if (!operator || refusal?.reason === "signed_out") redirect(SIGN_IN_PATH);
  if (refusal?.reason === "not_allowed") return { refused: `Your role (${operator.role}) does not include this: only an admin may ${ADMIN_ONLY[refusal.permission]}. Nothing was changed.` };
  if (refusal?.reason === "not_fresh") return { refused: "This needs a passkey sign-in within the last 10 minutes. Nothing was changed yet.", confirm: refusal.confirm };
  return operator;
}

export function isRefused(value: SignedInOperator | ActionRefused): value is ActionRefused {
  return "refused" in value;
}
