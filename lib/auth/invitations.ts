/**
 * Enrolment links: how an operator gets their first passkey (or a new one after
 * losing theirs) without a password and without anyone signing themselves up.
 * `npm run waitlist -- operators add` makes one; the link's token is shown once
 * and only its SHA-256 is stored, so a copy of the database cannot be used to enrol.
 * A link is good for ENROLMENT_HOURS and for one passkey (docs/security.md).
 */
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { Database, Prisma } from "../db";

export const ENROLMENT_HOURS = 24;
const ENROLMENT_PATH = "/operator/enrol";

function hashOf(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * The enrolment address. The token travels in the fragment (#…), which browsers
 * never send to a server: it stays out of access logs, proxies and Referer headers,
 * and the page hands it to the passkey ceremony itself.
 */
export function enrolmentUrl(siteUrl: string, token: string): string {
  return new URL(`${ENROLMENT_PATH}#${token}`, siteUrl).toString();
}

type Writer = Pick<Database, "operatorInvitation"> | Prisma.TransactionClient;

/** A new enrolment token for the operator (earlier unused ones stay valid until they expire). */
export async function createInvitation(
  database: Writer,
  operatorId: string,
  now = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + ENROLMENT_HOURS * 3_600_000);
  await database.operatorInvitation.create({ data: { tokenHash: hashOf(token), operatorId, createdAt: now, expiresAt } });
  return { token, expiresAt };
}

type InvitedOperator = { id: string; email: string; name: string };

/** The operator a token enrols, if it is unused and unexpired (nothing is changed). */
export async function invitedOperator(database: Database, token: string, now = new Date()): Promise<InvitedOperator | undefined> {
  if (!token) return undefined;
  const invitation = await database.operatorInvitation.findFirst({
    where: { tokenHash: hashOf(token), usedAt: null, expiresAt: { gt: now } },
    select: { operator: { select: { id: true, email: true, name: true } } },
  });
  return invitation?.operator;
}

/**
 * Uses the token up, for this operator: true if it was unused and unexpired. One
 * conditional update decides, so two browsers racing with one link cannot both enrol.
 */
export async function spendInvitation(database: Writer, token: string, operatorId: string, now = new Date()): Promise<boolean> {
  const { count } = await database.operatorInvitation.updateMany({
    where: { tokenHash: hashOf(token), operatorId, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  return count === 1;
}
