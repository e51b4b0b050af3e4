/**
 * Where a sign-up's time goes (docs/performance.md, issue 29): the production
 * server under the sign-up benchmark's load, profiled with V8's sampling
 * profiler (node --cpu-prof), once on the empty floor route and once on
 * POST /api/waitlist, each on a server of its own. Prints each thread's CPU
 * per answered request, split by where the code lives (the build's chunks are
 * mapped back to their sources through the build's source maps), and the
 * difference between the two runs: what a sign-up costs beyond the framework.
 *
 *   npm run bench:profile            PROFILE_SECONDS=10, PROFILE_TOP=25
 *   BENCH_SIGNUPS_DATABASE=<file>    on a copy of a seeded database, as bench:signups
 *   BENCH_DELIVERIES=fast            with mail and a webhook on, as bench:signups (both runs)
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { SourceMapConsumer, type RawSourceMap } from "source-map-js";
import { mailModeFromEnv, startLaunchReceivers } from "./support/launch-receivers";
import { uniqueSignupBody } from "./support/signups";
import { copyDatabase, ensureBuild, freshDatabase, LOAD_TEST_ENV, startSiteServer } from "./support/site-server";

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const TOP = Number(process.env.PROFILE_TOP ?? 25);
const CONNECTIONS = 32;
/** The project's root as a path prefix (the scripts run from it), to name our own files relative to it. */
const PROJECT = `${process.cwd()}${path.sep}`;

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

/** Source maps of the build's chunks, read once each. */
const maps = new Map<string, SourceMapConsumer | null>();
function sourceMapOf(file: string): SourceMapConsumer | null {
  if (!maps.has(file)) {
    try {
      maps.set(file, new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, "utf8")) as RawSourceMap));
    } catch {
      maps.set(file, null);
    }
  }
  return maps.get(file)!;
}

/** Where a frame's code lives: a package, one of our files, Node itself, or V8's own work. */
function placeOf({ url, functionName, lineNumber, columnNumber }: CallFrame): string {
  if (!url) return functionName.startsWith("(") ? functionName : `(native) ${functionName}`;
  if (url.startsWith("node:")) return url;
  let source = url.startsWith("file://") ? fileURLToPath(url) : url;
  if (source.includes(`${path.sep}.next${path.sep}`)) {
    const original = sourceMapOf(source)?.originalPositionFor({ line: lineNumber + 1, column: columnNumber });
    // A map names its sources as encoded URLs relative to the chunk ("../../../lib/x.ts", "%40prisma").
    if (original?.source) source = decodeURIComponent(original.source).replace(/^(\.\.\/)+/, "");
  }
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (inPackage) return inPackage[1]!;
  // Ours: a path in the project (from the source map, "[project]/lib/...", or a file of this checkout).
  const inProject = source.startsWith(PROJECT) ? source.slice(PROJECT.length) : source;
  const ours = /(?:\[project\]\/|^)((?:lib|app|server\.ts|components)[^?\s]*)/.exec(inProject);
  if (ours) return ours[1]!.replace(/ \[.*$/, "");
  return source.replace(/^.*\[turbopack\]/, "[turbopack]").slice(-80);
}

type ThreadCost = { thread: string; totalMs: number; byPlace: Map<string, number> };

/** Self time per place, over the whole profile. */
function costs(file: string): ThreadCost {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byPlace = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of selfMs) {
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName === "(idle)") continue;
    totalMs += ms;
    const place = placeOf(frame);
    byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
  }
  // --cpu-prof names a thread's profile CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile.
  const threadId = path.basename(file).split(".").at(-3);
  return { thread: path.basename(file) === "main.cpuprofile" ? "main" : `worker ${threadId}`, totalMs, byPlace };
}

async function profiled(label: string, route: string, databaseFile: string): Promise<{ requests: number; threads: ThreadCost[] }> {
  const dir = path.resolve(".tmp", "profile", label);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const mainProfile = path.join(dir, "main.cpuprofile");
  // The main thread is profiled for the measured run alone (profile-probe.cjs); the other threads
  // (the database's) for their whole life by --cpu-prof, which costs them little start-up.
  const server = await startSiteServer({
    port: 3245,
    databaseFile,
    env: { ...LOAD_TEST_ENV, BENCH_FLOOR_ROUTE: "1", PROFILE_FILE: mainProfile, ...receivers?.env },
    nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${path.join(dir, "threads")}`],
    preload: ["bench/support/profile-probe.cjs"],
  });
  const written = new Promise<void>((resolve) =>
    server.child.stderr!.on("data", (chunk: Buffer) => chunk.toString().includes("PROFILED") && resolve()),
  );
  let requests = 0;
  try {
    const fire = (seconds: number) =>
      autocannon({
        url: server.url + route,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            setupRequest: (request) => ({ ...request, body: uniqueSignupBody("profile").body }),
          },
        ],
      });
    await fire(3); // warm-up: the JIT and the database's pages
    server.child.kill("SIGURG");
    const result = await fire(SECONDS);
    server.child.kill("SIGURG");
    await written;
    requests = result.requests.total;
    if (result.non2xx > 0 || result.errors > 0) console.log(`${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  } finally {
    await server.stop();
  }
  const threads = readdirSync(path.join(dir, "threads"))
    .filter((name) => name.endsWith(".cpuprofile") && name.split(".").at(-3) !== "0")
    .map((name) => costs(path.join(dir, "threads", name)));
  return { requests, threads: [costs(mainProfile), ...threads].filter((thread) => thread.totalMs > 100) };
}

function show(label: string, run: { requests: number; threads: ThreadCost[] }): void {
  console.log(`\n${label}: ${run.requests.toLocaleString("en-US")} requests answered while profiled`);
  for (const thread of run.threads) {
    console.log(`  ${thread.thread}: ${((thread.totalMs / run.requests) * 1000).toFixed(0)} µs CPU per request`);
  }
}

/** Per request, each place's self time in the sign-up run against the floor run, largest difference first. */
function compare(floor: { requests: number; threads: ThreadCost[] }, signups: { requests: number; threads: ThreadCost[] }): void {
  for (const thread of ["main", ...new Set(signups.threads.map((t) => t.thread).filter((name) => name !== "main"))]) {
    const a = floor.threads.find((t) => t.thread === thread);
    const b = signups.threads.find((t) => t.thread === thread);
    if (!b) continue;
    const places = new Set([...(a?.byPlace.keys() ?? []), ...b.byPlace.keys()]);
    const rows = [...places].map((place) => {
      const floorUs = ((a?.byPlace.get(place) ?? 0) / floor.requests) * 1000;
      const signupUs = ((b.byPlace.get(place) ?? 0) / signups.requests) * 1000;
      return { place, floorUs, signupUs, extra: signupUs - floorUs };
    });
    rows.sort((x, y) => Math.abs(y.extra) - Math.abs(x.extra));
    console.log(`\n${thread} thread, µs of CPU per request (self time)    floor   sign-up     extra`);
    for (const row of rows.slice(0, TOP)) {
      console.log(
        `  ${row.place.slice(0, 56).padEnd(56)} ${row.floorUs.toFixed(1).padStart(7)} ${row.signupUs.toFixed(1).padStart(9)} ${row.extra.toFixed(1).padStart(9)}`,
      );
    }
    const sum = (run: { requests: number }, cost?: ThreadCost) => ((cost?.totalMs ?? 0) / run.requests) * 1000;
    console.log(
      `  ${"all".padEnd(56)} ${sum(floor, a).toFixed(1).padStart(7)} ${sum(signups, b).toFixed(1).padStart(9)} ${(sum(signups, b) - sum(floor, a)).toFixed(1).padStart(9)}`,
    );
  }
}

// Always a fresh build: a profile of an older build than the code in front of you misleads.
ensureBuild(true);
const mail = mailModeFromEnv();
const receivers = mail ? await startLaunchReceivers(mail) : undefined;
const seeded = process.env.BENCH_SIGNUPS_DATABASE;
const floorRun = await profiled("floor", "/api/bench/floor", freshDatabase("profile-floor"));
const signupDatabase = seeded ? copyDatabase(seeded, "profile-signups") : freshDatabase("profile-signups");
const signupRun = await profiled("signups", "/api/waitlist", signupDatabase);
show("empty route (floor)", floorRun);
show("POST /api/waitlist", signupRun);
compare(floorRun, signupRun);
console.log(`\nProfiles: .tmp/profile/ (open them in Chrome's DevTools, Performance tab)`);
await receivers?.close();
