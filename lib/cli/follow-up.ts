/**
 * The operator tool's follow-up commands: the queue (who is due or overdue for
 * our first contact) and marking one contacted, recorded as the shell's operator
 * (lib/console/audit.ts, shellActor) in the audit log and the entry's timeline.
 */
import "server-only";
import { parseArgs } from "node:util";
import type { Database } from "../db";
import { parseEnv } from "../env";
import { changeFollowUp, changeSchema } from "../follow-up/changes";
import { queuePage } from "../follow-up/queue";
import { deadlineOf, timeLeftText, urgencyOf } from "../follow-up/states";
import { configuredKinds } from "../waitlist/deliveries";
import { displayValue } from "../waitlist/fields";
import { shellActor } from "../audit/trail";
import { UsageError, write, type CliIo } from "./io";
import { count, renderTable, terminalSafe, utcMinute, type Column } from "../console/format";

export const FOLLOW_UP_USAGE = `  queue    Sign-ups due for our first contact within 6 hours, or overdue, oldest deadline first
             --all              everyone awaiting contact, not only those due
             --limit N          how many (default 50)
  contact  Mark one sign-up contacted (as the shell's operator, in the audit log)
             ID                 its id (from queue or list)
             --note TEXT        what happened, for the entry's timeline (only the team sees it)
`;

export async function queueCommand(db: Database, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { all: { type: "boolean" }, limit: { type: "string" } } });
  const limitText = values.limit ?? "50";
  if (!/^[1-9]\d{0,5}$/.test(limitText)) throw new UsageError(`--limit must be a positive whole number, not "${limitText}".`);
  const now = new Date();
  const page = await queuePage(db, {}, now, Number(limitText));
  const rows = values.all ? page.rows : page.rows.filter((row) => urgencyOf(row.createdAt, now) !== "on_time");
  const { overdue, dueSoon, awaiting } = page.counts;
  const summary = `${count(overdue)} overdue · ${count(dueSoon)} due within 6 hours · ${count(awaiting)} awaiting contact`;
  if (rows.length === 0) {
    await write(
      io.stdout,
      `${summary}\n\n${values.all ? "No one is awaiting contact." : "No one is due within 6 hours. (--all lists everyone awaiting contact.)"}\n`,
    );
    return 0;
  }
  const columns: Column<(typeof rows)[number]>[] = [
    { title: "Id", width: 8, value: (r) => String(r.id), alignRight: true },
    { title: "Deadline (UTC)", width: 16, value: (r) => utcMinute(deadlineOf(r.createdAt)) },
    { title: "Time left", width: 20, value: (r) => timeLeftText(r.createdAt, now) },
    { title: "Contact", width: 22, value: (r) => r.contactName },
    { title: "Company", width: 24, value: (r) => r.companyName },
    { title: "Trade", width: 18, value: (r) => displayValue("business_type", r.businessType) },
  ];
  await write(io.stdout, `${summary}\n\n${renderTable(columns, rows)}\n`);
  return 0;
}

export async function contactCommand(db: Database, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: { note: { type: "string" } } });
  if (positionals.length !== 1 || !/^[1-9]\d{0,15}$/.test(positionals[0]!))
    throw new UsageError("contact needs one entry ID (a number from queue or list).");
  const change = changeSchema.safeParse({ to: "contacted", note: values.note });
  if (!change.success) throw new UsageError(change.error.issues[0]!.message);
  const id = Number(positionals[0]);
  const [result] = await changeFollowUp(db, [id], change.data, shellActor(), { deliveries: configuredKinds(parseEnv()) });
  switch (result!.outcome) {
    case "changed":
      await write(
        io.stdout,
        `Entry ${id} is marked contacted${change.data.note ? ", with your note" : ""}. The running site tells the webhook within seconds.\n`,
      );
      return 0;
    case "already":
      await write(
        io.stdout,
        `Entry ${id} was already contacted (by ${terminalSafe(result!.by ?? "someone")}); ${change.data.note ? "your note was added to its timeline" : "nothing changed"}.\n`,
      );
      return 0;
    case "refused":
      await write(
        io.stderr,
        `Entry ${id} was not changed: ${result!.reason}${change.data.note ? " Your note was kept on its timeline." : ""}\n`,
      );
      return 1;
    case "missing":
      await write(io.stderr, `There is no entry ${id}. Nothing changed.\n`);
      return 1;
  }
}
