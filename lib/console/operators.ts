/**
 * Who may use the console, and with which role (lib/auth/roles.ts): added,
 * re-enrolled, listed, given a role and removed from the shell (npm run waitlist --
 * operators ...) or by an admin on the console's Operators page. There is no other
 * way in (docs/security.md). There is always an admin: the first operator is one,
 * and the last admin cannot be removed or made a member.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import type { Database, Prisma } from "../db";
import { createInvitation, enrolmentUrl } from "../auth/invitations";
import { recordAction, type Actor } from "../audit/trail";
import { isRole, type Role } from "../auth/roles";
import { z } from "zod";

/** What stops an operator change, in words for whoever asked; `shellHint`: the command to try instead, for the shell only. */
export class OperatorProblem extends Error {
  constructor(
    message: string,
    readonly shellHint?: string,
  ) {
    super(message);
  }
}

const emailSchema = z.email({ error: "That is not an email address." }).max(254);

/** Operators are known by their address, lowercased (it is how they sign in by email link). */
function operatorEmailOf(input: string): string {
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

export function roleOf(input: string | undefined): Role | undefined {
  if (input === undefined) return undefined;
  if (!isRole(input)) throw new OperatorProblem(`"${input}" is not a role: use admin or member.`);
  return input;
}

/**
 * Adds an operator and makes their one-time enrolment link; audited. Without a role:
 * the first operator is an admin (someone must be able to manage the rest), later ones members.
 */
export async function addOperator(
  database: Database,
  input: { email: string; name?: string; role?: Role },
  siteUrl: string,
  actor: Actor,
  now = new Date(),
): Promise<Enrolment & { role: Role }> {
  const email = operatorEmailOf(input.email);
  const name = input.name?.trim().slice(0, 100);
  try {
    return await database.$transaction(async (tx) => {
      // The write first (see above); the role is settled once the row is in, in the same transaction.
      const operator = await tx.operator.create({
        // The shell (or an admin) vouches for the address: an emailed sign-in link needs no further proof.
        data: {
          id: randomUUID(),
          email,
          name: name || email.split("@")[0]!,
          emailVerified: true,
          role: input.role ?? "member",
          createdAt: now,
          updatedAt: now,
        },
      });
      let role: Role = input.role ?? "member";
      if (!input.role && (await tx.operator.count()) === 1) {
        role = "admin";
        await tx.operator.update({ where: { id: operator.id }, data: { role } });
      }
      const { token, expiresAt } = await createInvitation(tx, operator.id, now);
      await recordAction(tx, { actor, action: "operator_invited", detail: { operator: email, role }, at: now });
      return { email, role, link: enrolmentUrl(siteUrl, token), expiresAt };
    });
  } catch (error) {
    if (codeOf(error) === UNIQUE_VIOLATION) {
      throw new OperatorProblem(
        `${email} is already an operator.`,
        `For a new enrolment link: npm run waitlist -- operators enrol ${email}`,
      );
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
    if (codeOf(error) === NOT_FOUND)
      throw new OperatorProblem(`${email} is not an operator.`, `Add them with: npm run waitlist -- operators add ${email}`);
    throw error;
  }
}

export type OperatorSummary = {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: Date;
  passkeys: number;
  sessions: number;
  lastSignIn: Date | null;
};

export async function listOperators(database: Database, now = new Date()): Promise<OperatorSummary[]> {
  const operators = await database.operator.findMany({
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      email: true,
      name: true,
      role: true,
      createdAt: true,
      _count: { select: { passkeys: true, sessions: { where: { expiresAt: { gt: now } } } } },
    },
  });
  const signIns = await database.operatorAction.groupBy({ by: ["operatorId"], where: { action: "sign_in" }, _max: { at: true } });
  const lastSignIn = new Map(signIns.map((row) => [row.operatorId, row._max.at]));
  return operators.map((operator) => ({
    id: operator.id,
    email: operator.email,
    name: operator.name,
    role: operator.role === "admin" ? "admin" : "member",
    createdAt: operator.createdAt,
    passkeys: operator._count.passkeys,
    sessions: operator._count.sessions,
    lastSignIn: lastSignIn.get(operator.id) ?? null,
  }));
}

const LAST_ADMIN = "There must always be an admin: make another operator an admin first.";

/** Throws (and so rolls the transaction back) if the change just made left no admin. */
async function keepAnAdmin(tx: Prisma.TransactionClient): Promise<void> {
  if ((await tx.operator.count({ where: { role: "admin" } })) === 0) throw new OperatorProblem(LAST_ADMIN);
}

/** Removes an operator with their passkeys, sessions (signed out everywhere at once) and links; audited. Never the last admin. */
export async function removeOperator(database: Database, input: string, actor: Actor, now = new Date()): Promise<boolean> {
  const email = operatorEmailOf(input);
  return database.$transaction(async (tx) => {
    const removed = await tx.$queryRaw<{ id: string; role: string }[]>`DELETE FROM operators WHERE email = ${email} RETURNING id, role`;
    if (removed.length === 0) return false;
    if (removed[0]!.role === "admin") await keepAnAdmin(tx);
    // Their queue goes back to everyone's (the timeline keeps that it was theirs).
    await tx.waitlistEntry.updateMany({ where: { assignedTo: removed[0]!.id }, data: { assignedTo: null } });
    await recordAction(tx, { actor, action: "operator_removed", detail: { operator: email }, at: now });
    return true;
  });
}

/** Gives an operator a role; audited. Never leaves the team without an admin. False: no such operator. */
export async function changeRole(database: Database, input: string, role: Role, actor: Actor, now = new Date()): Promise<boolean> {
  const email = operatorEmailOf(input);
  return database.$transaction(async (tx) => {
    const { count } = await tx.operator.updateMany({ where: { email }, data: { role, updatedAt: now } });
    if (count === 0) return false;
    if (role !== "admin") await keepAnAdmin(tx);
    await recordAction(tx, { actor, action: "operator_role_changed", detail: { operator: email, role }, at: now });
    return true;
  });
}
