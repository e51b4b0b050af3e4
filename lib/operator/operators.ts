/**
 * Who may use the console: added, re-enrolled, listed and removed from the shell
 * (npm run waitlist -- operators ...). There is no other way in (docs/security.md).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { Database } from "../db";
import { createInvitation, enrolmentUrl } from "../auth/invitations";
import { recordAction, type Actor } from "./audit";
import { z } from "zod";

export class OperatorProblem extends Error {}

const emailSchema = z.email({ error: "That is not an email address." }).max(254);

/** Operators are known by their address, lowercased (it is how they sign in by email link). */
export function operatorEmailOf(input: string): string {
  const parsed = emailSchema.safeParse(input.trim().toLowerCase());
  if (!parsed.success) throw new OperatorProblem(`"${input}" is not an email address.`);
  return parsed.data;
}

export type Enrolment = { email: string; link: string; expiresAt: Date };

/** Prisma's codes: a unique constraint refused the row; the row to change is not there. */
const UNIQUE_VIOLATION = "P2002";
const NOT_FOUND = "P2025";
const codeOf = (error: unknown) => (error as { code?: string }).code;

// Each transaction below starts with its write: SQLite gives a transaction that read first and
// writes later no wait for the lock ("database is locked" at once if another write came between),
// while a first write waits its turn (the busy timeout, lib/db/).

/** Adds an operator and makes their one-time enrolment link; audited. */
export async function addOperator(database: Database, input: { email: string; name?: string }, siteUrl: string, actor: Actor, now = new Date()): Promise<Enrolment> {
  const email = operatorEmailOf(input.email);
  try {
    return await database.$transaction(async (tx) => {
      const operator = await tx.operator.create({
        // The shell vouches for the address: an emailed sign-in link needs no further proof.
        data: { id: randomUUID(), email, name: input.name?.trim() || email.split("@")[0]!, emailVerified: true, createdAt: now, updatedAt: now },
      });
      const { token, expiresAt } = await createInvitation(tx, operator.id, now);
      await recordAction(tx, { actor, action: "operator_invited", detail: { operator: email }, at: now });
      return { email, link: enrolmentUrl(siteUrl, token), expiresAt };
    });
  } catch (error) {
    if (codeOf(error) === UNIQUE_VIOLATION) {
      throw new OperatorProblem(`${email} is already an operator. For a new enrolment link: npm run waitlist -- operators enrol ${email}`);
    }
    throw error;
  }
}

/** A new enrolment link for an existing operator (a lost passkey, an expired link); audited. */
export async function enrolAgain(database: Database, input: string, siteUrl: string, actor: Actor, now = new Date()): Promise<Enrolment> {
  const email = operatorEmailOf(input);
  try {
    return await database.$transaction(async (tx) => {
      const operator = await tx.operator.update({ where: { email }, data: { updatedAt: now }, select: { id: true } });
      const { token, expiresAt } = await createInvitation(tx, operator.id, now);
      await recordAction(tx, { actor, action: "operator_invited", detail: { operator: email, again: true }, at: now });
      return { email, link: enrolmentUrl(siteUrl, token), expiresAt };
    });
  } catch (error) {
    if (codeOf(error) === NOT_FOUND) throw new OperatorProblem(`${email} is not an operator. Add them with: npm run waitlist -- operators add ${email}`);
    throw error;
  }
}

export type OperatorSummary = { email: string; name: string; createdAt: Date; passkeys: number; sessions: number; lastSignIn: Date | null };

export async function listOperators(database: Database, now = new Date()): Promise<OperatorSummary[]> {
  const operators = await database.operator.findMany({
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      email: true,
      name: true,
      createdAt: true,
      _count: { select: { passkeys: true, sessions: { where: { expiresAt: { gt: now } } } } },
    },
  });
  const signIns = await database.operatorAction.groupBy({ by: ["operatorId"], where: { action: "sign_in" }, _max: { at: true } });
  const lastSignIn = new Map(signIns.map((row) => [row.operatorId, row._max.at]));
  return operators.map((operator) => ({
    email: operator.email,
    name: operator.name,
    createdAt: operator.createdAt,
    passkeys: operator._count.passkeys,
    sessions: operator._count.sessions,
    lastSignIn: lastSignIn.get(operator.id) ?? null,
  }));
}

/** Removes an operator with their passkeys, sessions (signed out everywhere at once) and links; audited. */
export async function removeOperator(database: Database, input: string, actor: Actor, now = new Date()): Promise<boolean> {
  const email = operatorEmailOf(input);
  return database.$transaction(async (tx) => {
    const removed = await tx.$queryRaw<{ id: string }[]>`DELETE FROM operators WHERE email = ${email} RETURNING id`;
    if (removed.length === 0) return false;
    // Their queue goes back to everyone's (the timeline keeps that it was theirs).
    await tx.waitlistEntry.updateMany({ where: { assignedTo: removed[0]!.id }, data: { assignedTo: null } });
    await recordAction(tx, { actor, action: "operator_removed", detail: { operator: email }, at: now });
    return true;
  });
}
