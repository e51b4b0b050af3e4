/**
 * `npm start`'s first step (prestart): builds the site only when its inputs changed since the last
 * build, saying why (scripts/build/inputs.ts); `--record` (the end of `npm run build`) writes down what
 * the build was made from. Either way it then bundles the server (scripts/build/server-bundle.ts).
 */
import { execFileSync } from "node:child_process";
import nextEnv from "@next/env";
import { currentInputs, recordInputs, whyRebuild } from "./inputs";
import { requireSupportedNode } from "../../lib/node-version";
import { bundleServer } from "./server-bundle";

requireSupportedNode();
const root = process.cwd();
// The environment as `next build` sees it: .env files included.
nextEnv.loadEnvConfig(root, false, { info: () => {}, error: console.error });

/** Set when this run had `npm run build` make the site: its last step (--record) bundled the server. */
let bundledByBuild = false;
if (process.argv.includes("--record")) {
  recordInputs(root, currentInputs(root));
} else {
  const started = performance.now();
  const why = whyRebuild(root, currentInputs(root));
  if (why === null) {
    console.log(`The build is up to date (checked in ${Math.round(performance.now() - started)} ms).`);
  } else {
    console.log(`Building the site: ${why}.`);
    try {
      // Without Next's usage reports, and so without its notice about them: nothing here sends
      // anything to anyone its operator has not configured. `NEXT_TELEMETRY_DISABLED= npm start`
      // (set, empty) keeps them; `npm run build` run directly is Next's own default.
      const env = { ...process.env, NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1" };
      execFileSync("npm", ["run", "-s", "build"], { stdio: "inherit", env });
      bundledByBuild = true;
    } catch {
      // next build has said what went wrong.
      process.exit(1);
    }
  }
}

if (!bundledByBuild) {
  try {
    await bundleServer(root);
  } catch {
    // esbuild has said what went wrong, and where.
    process.exit(1);
  }
}
