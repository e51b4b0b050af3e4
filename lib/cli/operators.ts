/**
 * The operator tool's commands for the console: who may sign in (operators) and
 * what operators did (audit). The console itself is under /operator.
 */
import "server-only";
import { parseArgs } from "node:util";
import { ENROLMENT_HOURS } from "../auth/invitations";
import { sendEnrolmentLink } from "../auth/emails";
import type { Database } from "../db";
import { parseEnv } from "../env";
import { listActions, shellActor } from "../audit/trail";
import { readAnswer, UsageError, write, type CliIo } from "./io";
import { count, renderTable, terminalSafe, utcMinute, type Column } from "../console/format";
import {
  addOperator,
  changeRole,
  enrolAgain,
  roleOf,
  listOperators,
  OperatorProblem,
  removeOperator,
  type Enrolment,
  type OperatorSummary,
} from "../console/operators";
import { utcDay } from "../time";
import { senderFromEnv } from "../mail/smtp";

export const OPERATOR_USAGE = `  operators   Who may sign in to the console (/operator) with a passkey
             add EMAIL [--name NAME] [--role member|admin]
                                      invite: prints a one-time enrolment link (${ENROLMENT_HOURS} hours),
                                      and emails it when SMTP_URL is set. The first operator is an
                                      admin, later ones members unless --role says otherwise
             enrol EMAIL              a new enrolment link (a lost passkey, an expired link)
             role EMAIL member|admin  change what they may do (there is always an admin)
             list                     operators, their roles, passkeys and last sign-in
             remove EMAIL [--yes]     remove, and end their sessions at once
  audit    What operators did (sign-ins, exports, removals, resends, invitations), newest first
             --limit N          how many (default 50)
`;

const minute = (date: Date) => `${utcMinute(date)} UTC`;

async function announce(enrolment: Enrolment, io: CliIo, invited: boolean): Promise<void> {
  const env = parseEnv();
  let mailed = "";
  const sender = senderFromEnv(env);
  if (sender) {
    try {
      await sendEnrolmentLink(sender, enrolment.email, enrolment.link, ENROLMENT_HOURS);
      mailed = `It was also emailed to ${enrolment.email}.\n`;
    } catch (error) {
      mailed = `Emailing it failed (${error instanceof Error ? error.message : String(error)}); pass the link on yourself.\n`;
    }
  }
  await write(
    io.stdout,
    `${invited ? `${enrolment.email} is now an operator.` : `A new enrolment link for ${enrolment.email}.`}\n` +
      `Their one-time link to create a passkey (until ${minute(enrolment.expiresAt)}):\n\n  ${enrolment.link}\n\n${mailed}` +
      "Anyone with the link can enrol as them once: pass it on privately.\n",
  );
}

export async function operatorsCommand(db: Database, args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  const siteUrl = parseEnv().SITE_URL;
  try {
    if (action === "add") {
      const { values, positionals } = parseArgs({
        args: rest,
        strict: true,
        allowPositionals: true,
        options: { name: { type: "string" }, role: { type: "string" } },
      });
      if (positionals.length !== 1) throw new UsageError("operators add needs one EMAIL.");
      const added = await addOperator(db, { email: positionals[0]!, name: values.name, role: roleOf(values.role) }, siteUrl, shellActor());
      await write(io.stdout, `Role: ${added.role}.\n`);
      await announce(added, io, true);
      return 0;
    }
    if (action === "role") {
      const { positionals } = parseArgs({ args: rest, strict: true, allowPositionals: true, options: {} });
      if (positionals.length !== 2) throw new UsageError("operators role needs an EMAIL and a role: member or admin.");
      const role = roleOf(positionals[1])!;
      if (!(await changeRole(db, positionals[0]!, role, shellActor()))) {
        await write(io.stderr, `${terminalSafe(positionals[0]!)} is not an operator. Nothing changed.\n`);
        return 1;
      }
      await write(io.stdout, `${terminalSafe(positionals[0]!)} is now ${role === "admin" ? "an admin" : "a member"}.\n`);
      return 0;
    }
    if (action === "enrol") {
      const { positionals } = parseArgs({ args: rest, strict: true, allowPositionals: true, options: {} });
      if (positionals.length !== 1) throw new UsageError("operators enrol needs one EMAIL.");
      await announce(await enrolAgain(db, positionals[0]!, siteUrl, shellActor()), io, false);
      return 0;
    }
    if (action === "list") {
      parseArgs({ args: rest, strict: true, options: {} });
      const operators = await listOperators(db);
      if (operators.length === 0) {
        await write(io.stdout, "No operators yet. Invite one: npm run waitlist -- operators add you@example.com\n");
        return 0;
      }
      const columns: Column<OperatorSummary>[] = [
        { title: "Email", width: 32, value: (o) => o.email },
        { title: "Name", width: 20, value: (o) => o.name },
        { title: "Role", width: 6, value: (o) => o.role },
        { title: "Passkeys", width: 8, value: (o) => String(o.passkeys), alignRight: true },
        {
          title: "Signed in now",
          width: 13,
          value: (o) => (o.sessions > 0 ? `${o.sessions} session${o.sessions === 1 ? "" : "s"}` : "no"),
        },
        { title: "Last sign-in", width: 20, value: (o) => (o.lastSignIn ? minute(o.lastSignIn) : "never") },
        { title: "Added", width: 10, value: (o) => utcDay(o.createdAt) },
      ];
      await write(
        io.stdout,
        `${renderTable(columns, operators)}\n\n${count(operators.length)} operator${operators.length === 1 ? "" : "s"}.\n`,
      );
      return 0;
    }
    if (action === "remove") {
      const { values, positionals } = parseArgs({
        args: rest,
        strict: true,
        allowPositionals: true,
        options: { yes: { type: "boolean" } },
      });
      if (positionals.length !== 1) throw new UsageError("operators remove needs one EMAIL.");
      const email = positionals[0]!;
      if (!values.yes) {
        await write(io.stdout, `Remove the operator ${terminalSafe(email)} and sign them out everywhere? Type yes to confirm: `);
        const answer = await readAnswer(io.stdin);
        if (answer !== "yes" && answer !== "y") {
          await write(io.stdout, "\nNot removed.\n");
          return 1;
        }
      }
      if (!(await removeOperator(db, email, shellActor()))) {
        await write(io.stderr, `${terminalSafe(email)} is not an operator. Nothing removed.\n`);
        return 1;
      }
      await write(io.stdout, `Removed ${terminalSafe(email)}: their passkeys, sessions and links no longer work.\n`);
      return 0;
    }
  } catch (error) {
    if (!(error instanceof OperatorProblem)) throw error;
    await write(io.stderr, `${terminalSafe(error.shellHint ? `${error.message} ${error.shellHint}` : error.message)}\n`);
    return 1;
  }
  throw new UsageError(
    action
      ? `Unknown operators command "${action}". Use add, enrol, role, list or remove.`
      : "operators needs add, enrol, role, list or remove.",
  );
}

export async function auditCommand(db: Database, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { limit: { type: "string" } } });
  const limitText = values.limit ?? "50";
  if (!/^[1-9]\d*$/.test(limitText)) throw new UsageError(`--limit must be a positive whole number, not "${limitText}".`);
  const rows = await listActions(db, { limit: Number(limitText) });
  if (rows.length === 0) {
    await write(io.stdout, "Nothing in the audit log yet.\n");
    return 0;
  }
  const columns: Column<(typeof rows)[number]>[] = [
    { title: "When (UTC)", width: 16, value: (r) => utcMinute(r.at) },
    { title: "Who", width: 30, value: (r) => r.actor },
    { title: "What", width: 22, value: (r) => r.label },
    { title: "Entry", width: 7, value: (r) => (r.entryId === null ? "" : `#${r.entryId}`), alignRight: true },
    { title: "Details", width: 40, value: (r) => r.detail ?? "" },
  ];
  await write(io.stdout, `${renderTable(columns, rows)}\n`);
  return 0;
}
