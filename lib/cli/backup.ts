/**
 * The operator tool's backup commands (docs/operations.md, "Backups"): a backup of the embedded
 * database while the site runs, and putting one back. lib/backup/backup.ts does the work.
 */
import "server-only";
import { parseArgs } from "node:util";
import { BackupProblem, backUpDatabase, refuseIfInUse, restoreDatabase } from "../backup/backup";
import { databaseSettings, parseEnv } from "../env";
import { readAnswer, UsageError, write, type CliIo } from "./io";
import { count } from "../console/format";

const signUps = (n: number) => `${count(n)} sign-up${n === 1 ? "" : "s"}`;

export const BACKUP_USAGE = `  backup FILE   A copy of the database in FILE, made while the site runs (SQLite's online
                backup), checked before it is given FILE's name
             --force            replace FILE if it exists
  restore FILE  Put the backup in FILE in place of the database; refused while the site (or any
                other process) has it open. The database as it was is kept beside it, as
                <database>.before-restore-<time>
             --yes              do not ask for confirmation
`;

/** The embedded database's file; a libSQL server's backups are its own. */
function databaseFile(): string {
  const settings = databaseSettings(parseEnv());
  if (!settings.file)
    throw new UsageError(
      "DATABASE_URL names a libSQL/Turso server: back it up, and restore it, with Turso's own tools (point-in-time restore).",
    );
  return settings.file;
}

function fileArgument(positionals: string[], command: string): string {
  if (positionals.length !== 1) throw new UsageError(`${command} takes one file, e.g. npm run waitlist -- ${command} backups/waitlist.db`);
  return positionals[0]!;
}

/** A problem with the files (not the command line): its sentence, exit code 1. */
async function reported(io: CliIo, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof BackupProblem)) throw error;
    await write(io.stderr, `${error.message}\n`);
    return 1;
  }
}

export async function backupCommand(_db: unknown, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: { force: { type: "boolean" } } });
  const target = fileArgument(positionals, "backup");
  const live = databaseFile();
  return reported(io, async () => {
    const result = await backUpDatabase(live, target, { replace: values.force });
    await write(
      io.stdout,
      `Backed up ${signUps(result.entries)} to ${result.file} (${(result.bytes / 1024 / 1024).toFixed(1)} MB, ${result.ms} ms); integrity checked.\n`,
    );
    return 0;
  });
}

export async function restoreCommand(_db: unknown, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: { yes: { type: "boolean" } } });
  const backup = fileArgument(positionals, "restore");
  const live = databaseFile();
  return reported(io, async () => {
    // Refused while the site runs, before anyone is asked to confirm.
    await refuseIfInUse(live);
    if (!values.yes) {
      await write(io.stdout, `Replace the database at ${live} with ${backup}? Type yes to confirm: `);
      const answer = await readAnswer(io.stdin);
      if (answer !== "yes" && answer !== "y") {
        await write(io.stdout, "\nNothing restored.\n");
        return 1;
      }
    }
    const result = await restoreDatabase(backup, live);
    const saved = result.savedAs ? ` The database as it was is kept in ${result.savedAs}.` : "";
    await write(io.stdout, `Restored ${signUps(result.entries)} from ${backup} into ${live}; integrity checked.${saved}\n`);
    return 0;
  });
}
