/**
 * An operator's own account: their passkeys (renamed, removed, never the last one)
 * and their signed-in browsers (one signed out, or every other one). Each change is
 * the operator's own rows only, audited in the same transaction.
 */
import "server-only";
import type { Database } from "../db";
import { passkeyName } from "../auth/passkey-name";
import { recordAction, type Actor } from "../audit/trail";

type OwnPasskey = { id: string; name: string | null; deviceType: string; createdAt: Date | null; lastUsedAt: Date | null };
type OwnSession = { id: string; browser: string; signedInAt: Date; lastSeenAt: Date; signedInWith: string | null; current: boolean };

export async function ownPasskeys(database: Database, operatorId: string): Promise<OwnPasskey[]> {
  return database.operatorPasskey.findMany({
    where: { userId: operatorId },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, deviceType: true, createdAt: true, lastUsedAt: true },
  });
}

/** A browser and system in a few words, from a User-Agent (shown to its own operator only). */
function browserOf(userAgent: string | null): string {
  if (!userAgent) return "Unknown browser";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /OPR\//.test(userAgent)
      ? "Opera"
      : /Firefox\//.test(userAgent)
        ? "Firefox"
        : /Chrome\/|Chromium\//.test(userAgent)
          ? "Chrome"
          : /Safari\//.test(userAgent)
            ? "Safari"
            : "A browser";
  const system = /iPhone|iPad/.test(userAgent)
    ? "iOS"
    : /Android/.test(userAgent)
      ? "Android"
      : /Mac OS X/.test(userAgent)
        ? "macOS"
        : /Windows/.test(userAgent)
          ? "Windows"
          : /Linux|X11/.test(userAgent)
            ? "Linux"
            : "another system";
  return `${browser} on ${system}`;
}

export async function ownSessions(
  database: Database,
  operatorId: string,
  currentSessionId: string,
  now = new Date(),
): Promise<OwnSession[]> {
  const rows = await database.operatorSession.findMany({
    where: { userId: operatorId, expiresAt: { gt: now } },
    orderBy: { updatedAt: "desc" },
    select: { id: true, userAgent: true, createdAt: true, updatedAt: true, signedInWith: true },
  });
  return rows.map((row) => ({
    id: row.id,
    browser: browserOf(row.userAgent),
    signedInAt: row.createdAt,
    lastSeenAt: row.updatedAt,
    signedInWith: row.signedInWith,
    current: row.id === currentSessionId,
  }));
}

type AccountOutcome =
  "renamed" | "removed" | "last_passkey" | "no_such_passkey" | "name" | "signed_out" | "signed_out_others" | "no_such_session";

/** Renames one of the operator's own passkeys (an empty name clears it). */
export async function renamePasskey(
  database: Database,
  operator: Actor & { operatorId: string },
  passkeyId: string,
  name: string,
): Promise<AccountOutcome> {
  const kept = passkeyName(name);
  if (kept === "too_long") return "name";
  return database.$transaction(async (tx): Promise<AccountOutcome> => {
    const { count } = await tx.operatorPasskey.updateMany({ where: { id: passkeyId, userId: operator.operatorId }, data: { name: kept } });
    if (count === 0) return "no_such_passkey";
    await recordAction(tx, { actor: operator, action: "passkey_renamed", detail: { passkey: passkeyId } });
    return "renamed";
  });
}

/** Removes one of the operator's own passkeys, never the last one (they could not sign in again without a new link). */
export async function removePasskey(
  database: Database,
  operator: Actor & { operatorId: string },
  passkeyId: string,
): Promise<AccountOutcome> {
  return database
    .$transaction(async (tx): Promise<AccountOutcome> => {
      const { count } = await tx.operatorPasskey.deleteMany({ where: { id: passkeyId, userId: operator.operatorId } });
      if (count === 0) return "no_such_passkey";
      // Counted after the delete, in the same transaction: two removals at once cannot both take the second-last.
      if ((await tx.operatorPasskey.count({ where: { userId: operator.operatorId } })) === 0) throw new LastPasskey();
      await recordAction(tx, { actor: operator, action: "passkey_removed", detail: { passkey: passkeyId } });
      return "removed";
    })
    .catch((error: unknown) => {
      if (error instanceof LastPasskey) return "last_passkey" as const;
      throw error;
    });
}

class LastPasskey extends Error {}

/** Signs out one of the operator's own browsers (not this one: that is Sign out). */
export async function endSession(
  database: Database,
  operator: Actor & { operatorId: string },
  sessionId: string,
  currentSessionId: string,
): Promise<AccountOutcome> {
  if (sessionId === currentSessionId) return "no_such_session";
  return database.$transaction(async (tx): Promise<AccountOutcome> => {
    const { count } = await tx.operatorSession.deleteMany({ where: { id: sessionId, userId: operator.operatorId } });
    if (count === 0) return "no_such_session";
    await recordAction(tx, { actor: operator, action: "session_ended", detail: { sessions: 1 } });
    return "signed_out";
  });
}

/** Signs out every browser of the operator's but this one. */
export async function endOtherSessions(
  database: Database,
  operator: Actor & { operatorId: string },
  currentSessionId: string,
): Promise<AccountOutcome> {
  return database.$transaction(async (tx): Promise<AccountOutcome> => {
    const { count } = await tx.operatorSession.deleteMany({ where: { userId: operator.operatorId, id: { not: currentSessionId } } });
    await recordAction(tx, { actor: operator, action: "session_ended", detail: { sessions: count, everywhere_else: true } });
    return "signed_out_others";
  });
}
