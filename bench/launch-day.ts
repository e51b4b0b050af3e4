/**
 * Launch day (issue 43, docs/performance.md): bench:signups with mail and a webhook on, once per
 * mail server: one that accepts at once, one that takes 200 ms a message, and one that refuses
 * every tenth new message once. Each run prints its own table; this prints the three side by side.
 *
 *   npm run bench:launch      BENCH_SECONDS, BENCH_ROUNDS, BENCH_SIGNUPS_DATABASE as bench:signups
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { MAIL_MODES } from "./support/launch-receivers";

type Figures = { mode: string; throughput: string; p99: string; latest: string; slowest: string; deliveries: string; exit: number | null };

const runs: Figures[] = [];
for (const mode of MAIL_MODES) {
  console.log(`\n=== mail server: ${mode} ===`);
  const run = spawnSync(path.join("node_modules", ".bin", "tsx"), ["bench/signup-load.ts"], {
    env: { ...process.env, BENCH_DELIVERIES: mode },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(run.stdout);
  const find = (pattern: RegExp) => pattern.exec(run.stdout)?.[1] ?? "?";
  const slowOutbox = [...run.stdout.matchAll(/^\s+\d+ x, max\s+(\d+) ms, total\s+\d+ ms\s+(?:\/\*[^*]*\*\/)*\s*(?:WITH due|UPDATE outbox|UPDATE signup_deliveries_state|DELETE FROM outbox)/gm)].map((match) => Number(match[1]));
  runs.push({
    mode,
    throughput: find(/sign-ups \/ floor: throughput ([\d.]+)/),
    p99: find(/sign-ups \/ floor: throughput [\d.]+ \(target >= [\d.]+\), p99 ([\d.]+)/),
    latest: find(/latest ([\d.]+|NOT within 120) s/),
    slowest: slowOutbox.length === 0 ? "none >= 20" : `${Math.max(...slowOutbox)} ms`,
    deliveries: find(/\((every delivery made once|PROBLEM)\)/),
    exit: run.status,
  });
}

console.log("\nlaunch day: sign-ups against the empty route of the same build, deliveries on\n");
console.log("mail server   throughput (>= 0.90)   p99 (<= 1.15)   last delivery after the load (<= 30 s)   outbox statement held   deliveries");
for (const run of runs) {
  console.log(
    `${run.mode.padEnd(13)} ${run.throughput.padStart(20)} ${run.p99.padStart(15)} ${`${run.latest} s`.padStart(40)} ${run.slowest.padStart(23)}   ${run.deliveries}`,
  );
}
if (runs.some((run) => run.exit !== 0)) process.exitCode = 1;
