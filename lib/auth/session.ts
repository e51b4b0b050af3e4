/**
 * Who is signed in to the console: the one check every console page, action and
 * download makes before it reads or changes anything (docs/security.md).
 */
import "server-only";
import { headers } from "next/headers";
import { cache } from "react";
import { redirect } from "next/navigation";
import { getDatabase, type Database } from "../db";
import type { Actor } from "../operator/audit";
import { getAuth, SESSION_IDLE_MINUTES, type Auth } from "./auth";

export const SIGN_IN_PATH = "/operator/sign-in";

export type SignedInOperator = { id: string; email: string; name: string; sessionId: string; actor: Actor };

/** How often a session's last use is written (the idle limit is counted from it). */
const TOUCH_EVERY_MS = 60_000;

/**
 * The operator whose session the request's cookie names, or null: no cookie, a
 * forged or expired one, a session past SESSION_IDLE_MINUTES of idleness (then
 * deleted), or an operator who was removed (their sessions went with them).
 * better-auth checks the cookie's signature and the session's expiry; it reads the
 * database every time (no cookie cache), so a removal takes effect at once.
 */
export async function operatorOf(requestHeaders: Headers, auth: Auth = getAuth(), database: Database = getDatabase(), now = new Date()): Promise<SignedInOperator | null> {
  const found = await auth.api.getSession({ headers: requestHeaders, query: { disableCookieCache: true } });
  if (!found) return null;
  const { session, user } = found;
  const idleMs = now.getTime() - new Date(session.updatedAt).getTime();
  if (idleMs > SESSION_IDLE_MINUTES * 60_000) {
    await database.operatorSession.deleteMany({ where: { id: session.id } });
    return null;
  }
  if (idleMs > TOUCH_EVERY_MS) await database.operatorSession.updateMany({ where: { id: session.id }, data: { updatedAt: now } });
  return { id: user.id, email: user.email, name: user.name, sessionId: session.id, actor: { email: user.email, operatorId: user.id } };
}

/**
 * The operator of the page being rendered, looked up once per request however many server
 * components ask (the console's layout and its page both do).
 */
export const currentOperator = cache(async (): Promise<SignedInOperator | null> => operatorOf(await headers()));

/** For a console page: the signed-in operator, or off to the sign-in page (which shows no data). */
export async function requireOperator(): Promise<SignedInOperator> {
  const operator = await currentOperator();
  if (!operator) redirect(SIGN_IN_PATH);
  return operator;
}
