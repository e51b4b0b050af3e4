/**
 * Entry point of `npm run waitlist -- <command>` (lib/cli/command-line.ts, then cli.ts).
 */
import "server-only";
import { logToStandardError } from "../log";
import { runCommandLine } from "./command-line";

// Standard output is the command's data (a table, a CSV export); faults it logs go beside it.
logToStandardError();

process.exitCode = await runCommandLine(process.argv.slice(2), process);
