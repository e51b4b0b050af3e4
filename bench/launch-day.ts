/**
 * Launch day (issue 43, docs/performance.md): bench:signups with mail and a webhook on, once per
 * mail server: one that accepts at once, one that takes 200 ms a message, and one that refuses
 * every tenth new message once; then once more with the fast one while an update to 100,000
 * entries drains (issue 60, BENCH_UPDATE). Each run prints its own table; this prints them side by side.
 *
 *   npm run bench:launch      BENCH_SECONDS, BENCH_ROUNDS, BENCH_SIGNUPS_DATABASE as bench:signups;
 *                             BENCH_UPDATE (default 100000) the update's entries, 0 for none
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
  update: {
    queued: number;
    queuedMs: number;
    duringSignups: number[];
    drain: { seconds: number; sent: number; perSecond: number; rssMiB: { start: number; peak: number; end: number } };
  } | null;
};

const UPDATE_ENTRIES = process.env.BENCH_UPDATE ?? "100000";
const RUNS: { mode: string; label: string; update: string }[] = [
  ...MAIL_MODES.map((mode) => ({ mode, label: mode, update: "0" })),
  ...(UPDATE_ENTRIES === "0" ? [] : [{ mode: "fast", label: "fast+update", update: UPDATE_ENTRIES }]),
];

const runs: { mode: string; summary: Summary | undefined; exit: number | null }[] = [];
for (const { mode, label, update } of RUNS) {
  console.log(`\n=== mail server: ${mode}${update === "0" ? "" : `, an update to ${update} entries draining`} ===`);
  const run = spawnSync(path.join("node_modules", ".bin", "tsx"), ["bench/signup-load.ts"], {
    env: { ...process.env, BENCH_DELIVERIES: mode, BENCH_UPDATE: update },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(run.stdout);
  const line = run.stdout.split("\n").find((text) => text.startsWith("SUMMARY "));
  runs.push({ mode: label, summary: line ? (JSON.parse(line.slice(8)) as Summary) : undefined, exit: run.status });
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
for (const { mode, summary } of runs) {
  const update = summary?.update;
  if (!update) continue;
  const { drain } = update;
  console.log(
    `\n${mode}: the update to ${update.queued} entries queued in ${(update.queuedMs / 1000).toFixed(1)} s; sent during the sign-up runs ` +
      `${update.duringSignups.join(" / ")}; the rest drained at ${drain.perSecond.toFixed(0)} a second; server RSS ` +
      `${drain.rssMiB.start.toFixed(0)} MiB at the start, ${drain.rssMiB.peak.toFixed(0)} at the peak, ${drain.rssMiB.end.toFixed(0)} at the end`,
  );
}
