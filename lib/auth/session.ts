/**
 * Who is signed in to the console: the one check every console page, action and
 * download makes before it reads or changes anything (docs/security.md).
 */
import "server-only";
import { headers } from "next/headers";
import { cache } from "react";
import { redirect } from "next/navigation";
import { getDatabase, type Database } from "../db";
import type { Actor } from "../audit/trail";
import { getAuth, SESSION_IDLE_MINUTES, type Auth } from "./auth";
import { confirmUrl, isFreshSignIn, may, type Permission, type Role } from "./roles";

export const SIGN_IN_PATH = "/operator/sign-in";
/** Where an operator lands who asked for a page their role does not include. */
const NOT_ALLOWED_PATH = "/operator/not-allowed";

export type SignedInOperator = {
  id: string;
  email: string;
  name: string;
  role: Role;
  sessionId: string;
  /** How and when this session was made: a passkey sign-in within 10 minutes unlocks dangerous acts (lib/auth/roles.ts). */
  signedInWith: string | null;
  signedInAt: Date;
  actor: Actor;
};

/** How often a session's last use is written (the idle limit is counted from it). */
const TOUCH_EVERY_MS = 60_000;

/**
 * The session rule, the one check every endpoint that takes a session makes, ours
 * and better-auth's (lib/auth/routes.ts runs it before the library sees a request).
 * The operator whose session the request's cookie names, or null: no cookie, a
 * forged or expired one, a session past SESSION_IDLE_MINUTES of idleness (then
 * deleted, so the library cannot find it either), or an operator who was removed
 * (their sessions went with them). better-auth checks the cookie's signature and the
 * session's expiry; it reads the database every time (no cookie cache), so a
 * removal takes effect at once.
 */
export async function operatorOf(
  requestHeaders: Headers,
  auth: Auth = getAuth(),
  database: Database = getDatabase(),
  now = new Date(),
): Promise<SignedInOperator | null> {
  const found = await auth.api.getSession({ headers: requestHeaders, query: { disableCookieCache: true } });
  if (!found) return null;
  const { session, user } = found;
  const idleMs = now.getTime() - new Date(session.updatedAt).getTime();
  if (idleMs > SESSION_IDLE_MINUTES * 60_000) {
    await database.operatorSession.deleteMany({ where: { id: session.id } });
    return null;
  }
  if (idleMs > TOUCH_EVERY_MS) await database.operatorSession.updateMany({ where: { id: session.id }, data: { updatedAt: now } });
  const role = (user as { role?: string }).role === "admin" ? "admin" : "member";
  const signedInWith = (session as { signedInWith?: string | null }).signedInWith ?? null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role,
    sessionId: session.id,
    signedInWith,
    signedInAt: new Date(session.createdAt),
    actor: { email: user.email, operatorId: user.id },
  };
}

/**
 * The operator of the page being rendered, looked up once per request however many server
 * components ask (the console's layout and its page both do).
 */
export const currentOperator = cache(async (): Promise<SignedInOperator | null> => operatorOf(await headers()));

/**
 * For a console page: the signed-in operator, or off to the sign-in page (which shows
 * no data); with a permission, an operator whose role lacks it goes to a page saying so.
 */
export async function requireOperator(permission?: Permission): Promise<SignedInOperator> {
  const operator = await currentOperator();
  if (!operator) redirect(SIGN_IN_PATH);
  if (permission && !may(operator.role, permission)) redirect(`${NOT_ALLOWED_PATH}?need=${permission}`);
  return operator;
}

/** Why a console act may not go ahead: not signed in, not this role's, or the sign-in is not fresh enough. */
type Refusal = { reason: "signed_out" } | { reason: "not_allowed"; permission: Permission } | { reason: "not_fresh"; confirm: string };

/**
 * The checks of a console act, in one place: signed in, the role includes it, and
 * (for a dangerous act) a passkey sign-in within the last 10 minutes. `returnTo` is
 * where the step-up page sends the operator back to.
 */
export function refusalOf(
  operator: SignedInOperator | null,
  need: { permission?: Permission; fresh?: boolean; returnTo?: string },
  now = new Date(),
): Refusal | null {
  if (!operator) return { reason: "signed_out" };
  if (need.permission && !may(operator.role, need.permission)) return { reason: "not_allowed", permission: need.permission };
  if (need.fresh && !isFreshSignIn(operator, now)) return { reason: "not_fresh", confirm: confirmUrl(need.returnTo ?? "/operator") };
  return null;
}
