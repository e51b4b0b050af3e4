/**
 * `npm test`: every stage, side by side where they can be, stopping everything at the first that
 * fails, and at the end each stage's time, so a slow stage names itself.
 *
 * Each stage is a script of package.json that can be run alone (the unit tests' two drivers are
 * `test:unit`'s two halves, and the fault suite is `test:faults` with its backups file apart). The
 * production build is made once (scripts/build/main.ts: skipped while its inputs are unchanged), for
 * the e2e server's address; a stage that starts a server waits for it.
 *
 * The lanes run side by side, each lane's stages one after another: the checks and the tests that
 * need no server in one, the build and the stages that start servers in the other, so the server
 * stages meet one lane of other work on a 2-core machine. No two stages that run at once share a
 * port or file. The scheduled backups' fault test (mostly waiting for its schedule) goes last to
 * whichever lane ends first.
 *
 * A stage's output goes to .tmp/test-logs/<stage>.log, and all of it is printed when the stage
 * fails. TEST_STAGES=lint,test:unit runs only those, one after another, with their output on the
 * terminal; TEST_SERIAL=1 runs every stage that way.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { E2E_SITE_URL } from "../e2e/support/config";

type Stage = {
  command: string[];
  env?: Record<string, string>;
  /** Starts a server on the build: the build is made first, whatever else runs. */
  needsBuild?: boolean;
  /** When the lanes run side by side, starts once the build is done (below). */
  afterBuild?: boolean;
};

const BACKUPS_FAULTS = "tests/faults/backups.test.ts";

const npmRun = (script: string, ...args: string[]) => ["npm", "run", "--silent", script, ...(args.length ? ["--", ...args] : [])];

const STAGES: Record<string, Stage> = {
  "db:generate": { command: npmRun("db:generate") },
  // Next's route types, then tsc: the one type check of the run. After the build, which would
  // otherwise clear .next/ (route types included) while tsc reads it.
  typecheck: { command: npmRun("typecheck"), afterBuild: true },
  lint: { command: npmRun("lint") },
  // What `npm start` builds, but for the e2e server's address (SITE_URL is baked into the pages),
  // without Next's own type check: the typecheck stage is that check (next.config.mjs).
  build: { command: ["npx", "tsx", "scripts/build/main.ts"], env: { SITE_URL: E2E_SITE_URL, BUILD_SKIPS_TYPE_CHECK: "1" } },
  "test:unit (better-sqlite3)": { command: ["npx", "vitest", "run", "--project", "better-sqlite3"] },
  "test:unit (libsql)": { command: ["npx", "vitest", "run", "--project", "libsql"] },
  "test:e2e": { command: npmRun("test:e2e"), needsBuild: true },
  "test:instances": { command: npmRun("test:instances"), needsBuild: true },
  // test:faults in two: the scheduled backups' file is 45 s of mostly waiting for the schedule's
  // next look, which either lane can take at its end (EITHER_LANE).
  "test:faults": { command: ["npx", "vitest", "run", "--project", "faults", "--exclude", BACKUPS_FAULTS], needsBuild: true },
  "test:faults (backups)": { command: ["npx", "vitest", "run", "--project", "faults", BACKUPS_FAULTS], needsBuild: true },
  "test:crash": { command: npmRun("test:crash"), needsBuild: true },
  "test:soak": { command: npmRun("test:soak"), needsBuild: true },
  "test:chaos": { command: npmRun("test:chaos"), needsBuild: true },
};

/** db:generate first (everything reads the generated client); then these side by side. */
const LANES: readonly (readonly string[])[] = [
  ["lint", "typecheck", "test:unit (better-sqlite3)", "test:unit (libsql)", "test:e2e"],
  ["build", "test:faults", "test:chaos", "test:instances", "test:crash", "test:soak"],
];

/** Taken by whichever lane finishes its own stages first. */
const EITHER_LANE: string[] = ["test:faults (backups)"];

/** One after another, for TEST_SERIAL and TEST_STAGES. */
const SERIAL_ORDER = ["db:generate", "typecheck", "lint", ...Object.keys(STAGES).filter((name) => name.startsWith("test:")), "build"];

/** A name in TEST_STAGES: a stage, or a script several stages make up (test:unit is both drivers). */
const stagesNamed = (name: string) => SERIAL_ORDER.filter((stage) => stage === name || stage.startsWith(`${name} (`));
const chosen = process.env.TEST_STAGES?.split(",").map((name) => name.trim());
const unknown = chosen?.filter((name) => stagesNamed(name).length === 0) ?? [];
if (unknown.length > 0) {
  console.error(`TEST_STAGES names no stage called ${unknown.join(", ")}: choose from ${[...SERIAL_ORDER, "test:unit"].join(", ")}.`);
  process.exit(2);
}
const serial = !!process.env.TEST_SERIAL || chosen !== undefined;

const LOG_DIR = path.join(".tmp", "test-logs");
mkdirSync(LOG_DIR, { recursive: true });

type Outcome = { stage: string; ms: number; status: "ok" | "failed" | "stopped" };
const outcomes: Outcome[] = [];
const running = new Set<ChildProcess>();
let failed: Outcome | null = null;
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s`;

/** Runs one stage, its output to its log (or the terminal when serial); resolves when it ends. */
function runStage(name: string): Promise<Outcome> {
  const stage = STAGES[name]!;
  const log = path.join(LOG_DIR, `${name.replace(/[^\w.-]+/g, "-").replace(/-+$/, "")}.log`);
  const from = performance.now();
  console.log(`${elapsed()}  ▶ ${name}${serial ? "" : `  (output: ${log})`}`);
  return new Promise((resolve) => {
    const [command, ...args] = stage.command;
    // Its own process group, so a failure elsewhere stops the stage and every process it started.
    const child = spawn(command!, args, {
      env: { ...process.env, ...stage.env },
      stdio: serial ? "inherit" : ["ignore", "pipe", "pipe"],
      detached: !serial,
    });
    if (!serial) {
      const file = createWriteStream(log);
      child.stdout!.pipe(file, { end: false });
      child.stderr!.pipe(file, { end: false });
      child.on("close", () => file.end());
    }
    running.add(child);
    child.on("close", (code, signal) => {
      running.delete(child);
      const stopped = failed !== null && code !== 0;
      const outcome: Outcome = { stage: name, ms: performance.now() - from, status: code === 0 ? "ok" : stopped ? "stopped" : "failed" };
      outcomes.push(outcome);
      console.log(`${elapsed()}  ${code === 0 ? "✓" : stopped ? "■" : "✗"} ${name} (${(outcome.ms / 1000).toFixed(0)} s)`);
      if (outcome.status === "failed") {
        failed = outcome;
        if (!serial) {
          console.log(`\n---- ${name}: exit ${code ?? signal}; its output (${log}):\n${readFileSync(log, "utf8")}\n---- end of ${name}\n`);
        }
        stopOthers();
      }
      resolve(outcome);
    });
  });
}

/**
 * Stops every stage still running (its whole process group). SIGINT, as Ctrl-C would: Playwright
 * then stops the servers it started in groups of their own (on SIGTERM it left them running, on
 * the e2e ports, for the next run to trip over); whatever is left after 20 s is killed.
 */
function stopOthers(): void {
  const signal = (child: ChildProcess, name: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, name);
    } catch {
      // Already gone.
    }
  };
  for (const child of running) {
    signal(child, "SIGINT");
    setTimeout(() => signal(child, "SIGKILL"), 20_000).unref();
  }
}

let built: Promise<Outcome> | undefined;
/** The build, once, whichever lane asks first. */
const build = () => (built ??= runStage("build"));

/** A lane: its stages in order, then what is left of `shared`, until one fails anywhere. */
async function runLane(stages: readonly string[], shared: string[] = []): Promise<void> {
  const next = (index: number) => (index < stages.length ? stages[index] : shared.shift());
  for (let index = 0, stage = next(0); stage !== undefined; stage = next(++index)) {
    if (STAGES[stage]!.needsBuild || (STAGES[stage]!.afterBuild && !serial)) await build();
    if (failed) return;
    await (stage === "build" ? build() : runStage(stage));
  }
}

for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
] as const) {
  process.on(signal, () => {
    stopOthers();
    process.exit(code);
  });
}

const wanted = (stage: string) => !chosen || chosen.some((name) => stagesNamed(name).includes(stage));
const order = SERIAL_ORDER.filter((stage) => stage === "db:generate" || wanted(stage));
if (serial) {
  await runLane(order);
} else {
  await runLane(["db:generate"]);
  const shared = [...EITHER_LANE];
  await Promise.all(LANES.map((lane) => runLane(lane, shared)));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(0).padStart(5)} s`;
const shown = [...order, ...outcomes.map((o) => o.stage).filter((stage) => !order.includes(stage))];
const lines = shown.map((stage) => {
  const outcome = outcomes.find((o) => o.stage === stage);
  return outcome ? `  ${stage.padEnd(28)}${seconds(outcome.ms)}  ${outcome.status}` : `  ${stage.padEnd(28)}      -  not run`;
});
const lanes = serial
  ? ""
  : `\nlanes: ${LANES.map((lane) => lane.join(" → ")).join("\n       ")}\n       then either lane: ${EITHER_LANE.join(", ")}`;
console.log(`\nnpm test: ${seconds(performance.now() - started).trim()} in all${lanes}\n${lines.join("\n")}`);
process.exit(failed ? 1 : 0);
