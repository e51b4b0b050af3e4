/**
 * Entry point of `npm run waitlist -- <command>` (lib/operator/cli.ts). Reads
 * .env files the way the site does, so it opens the site's database.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import nextEnv from "@next/env";
import { openDatabase } from "../db";
import { databaseFileFromUrl, parseEnv } from "../env";
import { runCli, USAGE } from "./cli";

/** A problem with the database an operator can fix; printed as is. */
class DatabaseProblem extends Error {}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || ["help", "--help", "-h"].includes(argv[0]!)) {
    (argv.length === 0 ? process.stderr : process.stdout).write(USAGE);
    return argv.length === 0 ? 2 : 0;
  }

  nextEnv.loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });
  const file = databaseFileFromUrl(parseEnv().DATABASE_URL);
  const shown = path.relative(process.cwd(), file) || file;
  const openDb = () => {
    if (!existsSync(file)) {
      throw new DatabaseProblem(`There is no waitlist database at ${shown} yet. Start the site (npm start) or run npm run db:migrate first.`);
    }
    return openDatabase(file);
  };
  try {
    return await runCli(argv, openDb, process);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      error instanceof DatabaseProblem
        ? `${message}\n`
        : /no such (table|column)/.test(message)
          ? `The database at ${shown} is not up to date (${message}). Run npm run db:migrate.\n`
          : `The command failed: ${message}\n`,
    );
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
