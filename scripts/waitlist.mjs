/**
 * `npm run waitlist -- <command>`: the operator tool (lib/cli/main.ts) bundled with esbuild
 * (scripts/build/bundle.mjs) into .next/fieldcrew/waitlist.mjs and run in this process, with plain
 * node. Through tsx a command took about 1.1 s and 1.6 s of CPU before its first line of work
 * (`stats` on a small database); bundled, 0.6 s and 0.8 s (docs/performance.md, "Starting the
 * server"). Source maps on, so a stack trace names the .ts file and its line.
 */
import { pathToFileURL } from "node:url";
import { bundleEntry } from "./build/bundle.mjs";

process.setSourceMapsEnabled(true);
let bundle;
try {
  bundle = await bundleEntry(process.cwd(), "lib/cli/main.ts", ".next/fieldcrew/waitlist.mjs");
} catch {
  // esbuild has said what went wrong, and where.
  process.exit(1);
}
await import(pathToFileURL(bundle).href);
