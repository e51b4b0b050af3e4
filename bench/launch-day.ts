/**
 * Launch day (issue 43, docs/performance.md): bench:signups with mail and a webhook on, once per
 * mail server: one that accepts at once, one that takes 200 ms a message, and one that refuses
 * every tenth new message once. Each run prints its own table; this prints the three side by side.
 *
 *   npm run bench:launch      BENCH_SECONDS, BENCH_ROUNDS, BENCH_SIGNUPS_DATABASE as bench:signups
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { heldText, type Held } from "./support/held";
import { MAIL_MODES } from "./support/launch-receivers";

type Summary = {
  throughput: number;
  p99: number;
  p99PerRound: number;
  latestDeliverySeconds: number | null;
  outboxHeld: { underLoad: Held; betweenRuns: Held };
  lost: number;
  deliveriesOnce: boolean | null;
};

const runs: { mode: string; summary: Summary | undefined; exit: number | null }[] = [];
for (const mode of MAIL_MODES) {
  console.log(`\n=== mail server: ${mode} ===`);
  const run = spawnSync(path.join("node_modules", ".bin", "tsx"), ["bench/signup-load.ts"], {
    env: { ...process.env, BENCH_DELIVERIES: mode },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(run.stdout);
  const line = run.stdout.split("\n").find((text) => text.startsWith("SUMMARY "));
  runs.push({ mode, summary: line ? (JSON.parse(line.slice(8)) as Summary) : undefined, exit: run.status });
}

const held = (hold: Held) => (hold.ms === 0 ? "< 20 ms" : heldText(hold));
console.log("\nlaunch day: sign-ups against the empty route of the same build, deliveries on (targets in brackets)\n");
console.log(
  "mail server  throughput (>= 0.90)  p99 (<= 1.15; median per round)  last delivery (<= 30 s)  outbox statement held: under load (< 20 ms) / between runs  every delivery once",
);
for (const { mode, summary } of runs) {
  if (!summary) {
    console.log(`${mode.padEnd(12)} (the run failed; its output is above)`);
    continue;
  }
  console.log(
    `${mode.padEnd(12)} ${summary.throughput.toFixed(3).padStart(20)} ${`${summary.p99.toFixed(3)}; ${summary.p99PerRound.toFixed(3)}`.padStart(32)} ${`${summary.latestDeliverySeconds?.toFixed(1)} s`.padStart(24)}` +
      `  ${`${held(summary.outboxHeld.underLoad)} / ${held(summary.outboxHeld.betweenRuns)}`.padStart(57)}  ${summary.deliveriesOnce && summary.lost === 0 ? "yes" : "NO"}`,
  );
}
if (runs.some((run) => run.exit !== 0)) process.exitCode = 1;
