/**
 * Entry point of `npm run waitlist -- <command>` (lib/operator/cli.ts). Reads
 * .env files the way the site does, so it opens the site's database.
 */
import "server-only";
import nextEnv from "@next/env";
import { createDatabase, DatabaseMissing } from "../db";
import { databaseSettings, parseEnv } from "../env";
import { logToStandardError } from "../log";
import { runCli, USAGE } from "./cli";

// Standard output is the command's data (a table, a CSV export); faults it logs go beside it.
logToStandardError();

/** Prisma's codes for a table or column the database lacks: migrations were not applied. */
const NOT_MIGRATED = new Set(["P2021", "P2022"]);

function isNotMigrated(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return (code !== undefined && NOT_MIGRATED.has(code)) || /no such (table|column)/.test(message ?? "");
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || ["help", "--help", "-h"].includes(argv[0]!)) {
    (argv.length === 0 ? process.stderr : process.stdout).write(USAGE);
    return argv.length === 0 ? 2 : 0;
  }

  nextEnv.loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });
  const env = parseEnv();
  const { DATABASE_URL } = env;
  try {
    return await runCli(argv, () => createDatabase(databaseSettings(env)), process);
  } catch (error) {
    const message = error instanceof Error ? error.message.trim() : String(error);
    process.stderr.write(
      error instanceof DatabaseMissing
        ? `${message}\n`
        : isNotMigrated(error)
          ? `The database at ${DATABASE_URL} is not up to date (${message.split("\n").at(-1)}). Run npm run db:migrate.\n`
          : `The command failed: ${message}\n`,
    );
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
