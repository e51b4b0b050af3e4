import { createHmac } from "node:crypto";
import { COOKIE_PREFIX, getAuth } from "@/lib/auth/auth";
import { getDatabase } from "@/lib/db";

/**
 * An operator signed in as the console's own code would leave them (an admin, just
 * signed in with a passkey, unless told otherwise): a session made by better-auth's adapter, and its cookie signed with the auth secret the
 * way the library signs it (HMAC-SHA256, base64). The route tests check the real
 * session lookup with it; the passkey ceremony itself is in e2e/operator-*.spec.ts.
 */
export async function signedInOperator(
  email: string,
  name = "Test Operator",
  { role = "admin", signedInWith = "passkey" }: { role?: "admin" | "member"; signedInWith?: string } = {},
): Promise<{ id: string; cookie: string; sessionId: string }> {
  const now = new Date();
  const operator = await getDatabase().operator.create({
    data: { id: crypto.randomUUID(), email, name, role, emailVerified: true, createdAt: now, updatedAt: now },
  });
  const context = await getAuth().$context;
  const made = await context.internalAdapter.createSession(operator.id);
  // As a sign-in endpoint would have marked it (a passkey sign-in just now is fresh).
  const session = await getDatabase().operatorSession.update({ where: { id: made.id }, data: { signedInWith } });
  return { id: operator.id, sessionId: session.id, cookie: sessionCookie(session.token, context.secret) };
}

/** The session cookie for `token`, signed with `secret` the way better-auth signs it (HMAC-SHA256, base64). */
export function sessionCookie(token: string, secret: string): string {
  const signature = createHmac("sha256", secret).update(token).digest("base64");
  return `${COOKIE_PREFIX}.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
}
