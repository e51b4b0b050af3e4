import { createHmac } from "node:crypto";
import { COOKIE_PREFIX, getAuth } from "@/lib/auth/auth";
import { getDatabase } from "@/lib/db";

/**
 * An operator signed in as the console's own code would leave them: a session
 * made by better-auth's adapter, and its cookie signed with the auth secret the
 * way the library signs it (HMAC-SHA256, base64). The route tests check the real
 * session lookup with it; the passkey ceremony itself is in e2e/operator-*.spec.ts.
 */
export async function signedInOperator(email: string, name = "Test Operator"): Promise<{ id: string; cookie: string }> {
  const now = new Date();
  const operator = await getDatabase().operator.create({ data: { id: crypto.randomUUID(), email, name, emailVerified: true, createdAt: now, updatedAt: now } });
  const context = await getAuth().$context;
  const session = await context.internalAdapter.createSession(operator.id);
  const signature = createHmac("sha256", context.secret).update(session.token).digest("base64");
  return { id: operator.id, cookie: `${COOKIE_PREFIX}.session_token=${encodeURIComponent(`${session.token}.${signature}`)}` };
}
