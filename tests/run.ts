/**
 * `npm test`: every stage in turn, stopping at the first that fails, and at the end each stage's
 * time, so a slow stage names itself. The stages are the scripts of package.json (each can be
 * run alone); the production build is made once, by the first stage that needs it (e2e), and
 * reused by the rest while its inputs are unchanged (lib/build/inputs.ts). TEST_STAGES=lint,test:unit
 * runs only those, in this order.
 */
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";

const STAGES = [
  "db:generate",
  "typecheck",
  "lint",
  "test:unit",
  "test:e2e",
  "test:instances",
  "test:faults",
  "test:crash",
  "test:soak",
  "test:chaos",
] as const;

const chosen = process.env.TEST_STAGES?.split(",").map((stage) => stage.trim());
const unknown = chosen?.filter((stage) => !(STAGES as readonly string[]).includes(stage)) ?? [];
if (unknown.length > 0) {
  console.error(`TEST_STAGES names no stage called ${unknown.join(", ")}: choose from ${STAGES.join(", ")}.`);
  process.exit(2);
}
const stages = chosen ? STAGES.filter((stage) => chosen.includes(stage)) : STAGES;

const seconds = (ms: number) => `${(ms / 1000).toFixed(0).padStart(5)} s`;
const times: [string, number, string][] = [];
const started = performance.now();
let failed: string | null = null;

for (const stage of stages) {
  console.log(`\n▶ npm run ${stage}`);
  const from = performance.now();
  const run = spawnSync("npm", ["run", "--silent", stage], { stdio: "inherit" });
  const ok = run.status === 0;
  times.push([stage, performance.now() - from, ok ? "ok" : `failed (exit ${run.status ?? run.signal})`]);
  if (!ok) {
    failed = stage;
    break;
  }
}

const lines = times.map(([stage, ms, outcome]) => `  ${stage.padEnd(16)}${seconds(ms)}  ${outcome}`);
const skipped = stages.slice(times.length).map((stage) => `  ${stage.padEnd(16)}      -  not run`);
console.log(`\nnpm test: ${seconds(performance.now() - started).trim()} in all\n${[...lines, ...skipped].join("\n")}`);
process.exit(failed ? 1 : 0);
