/**
 * `npm run waitlist -- <command>`: the operator tool (lib/cli/main.ts) bundled with esbuild
 * (scripts/build/bundle.mjs) into .next/fieldcrew/waitlist.mjs and run in this process, with plain
 * node: a command starts in about half the time it takes through tsx, whose loader hooks see every
 * module (docs/performance.md, "The test run and the start"). Source maps on, so a stack trace
 * names the .ts file and its line.
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
