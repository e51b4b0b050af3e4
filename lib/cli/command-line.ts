/**
 * `npm run waitlist -- <command>` as a function of its arguments and streams: the .env files read
 * the way the site reads them, the command run on the site's database, and every failure one
 * sentence on standard error with an exit code. lib/cli/main.ts runs it as the process; the
 * tests run it in their own process, which starts in milliseconds instead of most of a second.
 */
import "server-only";
import nextEnv from "@next/env";
import { createDatabase, DatabaseMissing } from "../db";
import { databaseSettings, parseEnv } from "../env";
import { runCli, USAGE } from "./commands";
import { write, type CliIo } from "./io";

/**
 * How long a command's transaction may wait to start. A command's first statement starts the
 * connection's thread and loads the query engine, inside that wait when the statement is a
 * transaction (operators add): 0.4 s here idle, 1.5-2 s on two busy cores, past Prisma's default of
 * 2 s under a test run's load ("Unable to start a transaction in the given time"). Waiting a little
 * longer costs an operator at the shell nothing.
 */
const TRANSACTION_MAX_WAIT_MS = 15_000;

/** Prisma's codes for a table or column the database lacks: migrations were not applied. */
const NOT_MIGRATED = new Set(["P2021", "P2022"]);

function isNotMigrated(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return (code !== undefined && NOT_MIGRATED.has(code)) || /no such (table|column)/.test(message ?? "");
}

/** Runs one command line; the promise is its exit code. */
export async function runCommandLine(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 0 || ["help", "--help", "-h"].includes(argv[0]!)) {
    await write(argv.length === 0 ? io.stderr : io.stdout, USAGE);
    return argv.length === 0 ? 2 : 0;
  }

  nextEnv.loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });
  const env = parseEnv();
  const { DATABASE_URL } = env;
  try {
    return await runCli(argv, () => createDatabase(databaseSettings(env), {}, { transactionMaxWaitMs: TRANSACTION_MAX_WAIT_MS }), io);
  } catch (error) {
    const message = error instanceof Error ? error.message.trim() : String(error);
    await write(
      io.stderr,
      error instanceof DatabaseMissing
        ? `${message}\n`
        : isNotMigrated(error)
          ? `The database at ${DATABASE_URL} is not up to date (${message.split("\n").at(-1)}). Run npm run db:migrate.\n`
          : `The command failed: ${message}\n`,
    );
    return 1;
  }
}
