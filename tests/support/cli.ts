/**
 * The operator tool for a test file: its own migrated database (setUpTestDatabase), the command run
 * in this process or as the real process on it, and sign-ups stored through the site's store.
 */
import path from "node:path";
import { getDatabase } from "@/lib/db";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { setUpTestDatabase } from "./database";
import { validSignup } from "./requests";
import { waitlistCommand, waitlistProcess as spawnedWaitlist, type CommandRun } from "./waitlist-command";

export type Run = CommandRun;
type RunOptions = { input?: string; databaseUrl?: string; env?: Record<string, string | undefined> };
type Seed = Partial<Record<string, unknown>> & { daysAgo?: number };

export const USAGE_LINE = "Usage: npm run waitlist -- <command> [options]";

export function cliOnTestDatabase() {
  const { file } = setUpTestDatabase();
  const workDir = path.dirname(file);

  /** The command in this process, on this file's database unless `databaseUrl` names another. */
  const waitlist = (args: string[], options: RunOptions = {}) =>
    waitlistCommand(args, { input: options.input, env: { DATABASE_URL: options.databaseUrl ?? `file:${file}`, ...options.env } });

  /** The real command as a process, on this file's database unless `databaseUrl` names another. */
  const waitlistProcess = (args: string[], options: RunOptions & { preload?: string; heapMiB?: number } = {}) =>
    spawnedWaitlist(args, { ...options, env: { DATABASE_URL: options.databaseUrl ?? `file:${file}` } });

  /** Stores sign-ups through the site's store, then dates them `daysAgo` days back. */
  async function seed(...entries: Seed[]) {
    for (const { daysAgo = 0, source_page = null, utm_source = null, utm_medium = null, utm_campaign = null, ...fields } of entries) {
      const signup = waitlistSignupSchema.parse({ ...validSignup(), ...fields, source_page, utm_source, utm_medium, utm_campaign });
      const result = await addToWaitlist(signup);
      if (result.outcome !== "created") throw new Error(`seed failed: ${result.outcome}`);
      const when = new Date(Date.now() - daysAgo * 86_400_000);
      await getDatabase().waitlistEntry.update({ where: { id: result.entry.id }, data: { createdAt: when } });
    }
  }

  return { file, workDir, waitlist, waitlistProcess, seed };
}
