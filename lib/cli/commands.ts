/**
 * `npm run waitlist -- <command>`: find, count, export and remove sign-ups
 * without writing SQL (docs/operations.md). This module parses arguments and
 * runs a command against an open database; main.ts wires it to the process.
 */
import "server-only";
import type { Database } from "../db";
import { BUSINESS_TYPE_VALUES, COMPANY_SIZE_VALUES } from "../content/signup-options";
import { UsageError, write, type CliIo } from "./io";
import { backupCommand, BACKUP_USAGE, restoreCommand } from "./backup";
import { mailCommand, MAIL_USAGE } from "./mail";
import { auditCommand, operatorsCommand, OPERATOR_USAGE } from "./operators";
import { contactCommand, FOLLOW_UP_USAGE, queueCommand } from "./follow-up";
import { checkCommand, duplicatesCommand, exportCommand, list, remove } from "./entries";
import { deliveries, redeliverCommand } from "./deliveries";
import { statsCommand } from "./stats";
import { updatesCommand, UPDATES_USAGE } from "./updates";
import { terminalSafe } from "../console/format";

export const USAGE = `Usage: npm run waitlist -- <command> [options]

Commands:
  list     Sign-ups, newest first
             --type TYPE        business type: ${BUSINESS_TYPE_VALUES.join(", ")}
             --size SIZE        company size: ${COMPANY_SIZE_VALUES.join(", ")}
             --since DATE       on or after this day (YYYY-MM-DD, UTC) or moment (ISO 8601)
             --search TEXT      in company name, contact name or email
             --confirmed yes|no whether the visitor confirmed their email
             --limit N|all      how many to show (default 50)
  stats    Totals, confirmed emails, removals, by business type, company size, source and
           page, per day for 30 days, addresses refused (why, and which domains), and the
           funnel from a visit to an invitation, for the site, per campaign and per page
             --from DAY --to DAY  the funnel's range (YYYY-MM-DD, UTC; default the last 28 days)
  export   Every sign-up with every field
             --format csv|json  required
             --out FILE         write to FILE instead of standard output
             --force            replace FILE if it exists
  duplicates  Entries kept as duplicates of an older one (one mailbox, several rows, from
           before one mailbox meant one entry), under the entry they duplicate
  check    Whether an address would be taken now, and if not, why
             --email ADDRESS    required
  remove   Delete one sign-up (and whatever was still to be sent about it)
             --email ADDRESS    the mailbox's entry (any spelling of the address), or
             --id N             one row by its id (a duplicate, from duplicates)
             --yes              do not ask for confirmation
  deliveries  Notifications owed to other systems: counts, and those not delivered
             --status pending|failed|all   which to list (default: failed and pending)
             --limit N          how many to list (default 50)
  redeliver   Send failed deliveries again, with a fresh set of attempts
             --id ID            one delivery (its id from deliveries)
             --all-failed       every failed delivery
${FOLLOW_UP_USAGE}${UPDATES_USAGE}${OPERATOR_USAGE}${BACKUP_USAGE}${MAIL_USAGE}`;

const COMMANDS: Record<string, (db: Database, args: string[], io: CliIo) => Promise<number>> = {
  list,
  stats: statsCommand,
  export: exportCommand,
  duplicates: duplicatesCommand,
  check: checkCommand,
  remove,
  deliveries,
  redeliver: redeliverCommand,
  queue: queueCommand,
  contact: contactCommand,
  operators: operatorsCommand,
  audit: auditCommand,
  backup: backupCommand,
  restore: restoreCommand,
  mail: mailCommand,
  updates: updatesCommand,
};

/**
 * Runs one command; returns the exit code. Bad usage: the reason and the usage
 * on stderr, 2. The database is opened only for a command that exists, and closed after.
 */
export async function runCli(argv: string[], openDb: () => Database, io: CliIo): Promise<number> {
  const [command] = argv;
  try {
    if (!command || !Object.hasOwn(COMMANDS, command)) {
      throw new UsageError(command ? `Unknown command "${command}".` : "Name a command.");
    }
    const db = openDb();
    try {
      return await COMMANDS[command]!(db, argv.slice(1), io);
    } finally {
      await db.$disconnect();
    }
  } catch (error) {
    const isArgumentError = error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    if (!isArgumentError) throw error;
    await write(io.stderr, `${terminalSafe((error as Error).message)}\n\n${USAGE}`);
    return 2;
  }
}
