/**
 * Starts the site's production server (server.ts, bundled, as `npm start` runs it) as a
 * child process on a database of its own, for the crash, soak and load runs.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { builtSiteUrl } from "../../lib/site/build-record";
import { bundleServer, SERVER_NODE_ARGS } from "../../scripts/build/server-bundle";

export const BENCH_SECRET = "bench-only-secret-not-for-production-0123456789";

/** Settings that switch the bot checks to test mode for a load run: a known secret, no minimum time, no practical rate limit. */
export const LOAD_TEST_ENV = {
  WAITLIST_SECRET: BENCH_SECRET,
  WAITLIST_MIN_SUBMIT_MS: "0",
  WAITLIST_RATE_LIMIT_MAX: "1000000000",
};

export type SiteServer = {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything the server wrote to standard output (its JSON log lines) so far, when started with `output: true` or a logFile. */
  output(): string;
  /**
   * What it wrote to standard error: all of it when its output is kept (Next prints there what a
   * page threw), else the last 4 kB.
   */
  errorOutput(): string;
  /** Resident memory of the server process in MiB, from /proc. */
  rssMiB(): number;
  /** After a full garbage collection in the server: RSS and V8 heap in use, MiB. */
  memoryAfterGc(): Promise<{ rss: number; heapUsed: number; external: number }>;
  stop(): Promise<void>;
};

/** The pages the page benchmarks load (bench:pages, bench:first-paint), hello-world, the framework's floor, first. */
export function benchedPages(siteUrl: string, helloUrl: string): { name: string; url: string }[] {
  return [
    { name: "hello-world", url: `${helloUrl}/` },
    { name: "/", url: `${siteUrl}/` },
    { name: "/about", url: `${siteUrl}/about` },
    { name: "/careers", url: `${siteUrl}/careers` },
    // Rendered per request (its own security question), unlike the three prerendered pages.
    { name: "/join", url: `${siteUrl}/join` },
  ];
}

/** A fresh, migrated database file under .tmp/<name>/. */
export function freshDatabase(name: string): string {
  const dir = path.resolve(".tmp", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "waitlist.db");
  execFileSync(path.join("node_modules", ".bin", "tsx"), ["prisma/migrate.ts"], {
    env: { ...process.env, DATABASE_URL: `file:${file}` },
    stdio: "pipe",
  });
  return file;
}

/**
 * A copy of `source` (a seeded database, say) as a fresh database under .tmp/<name>/: its log is
 * checkpointed into the main file first, so the copy is the whole database; then migrated.
 */
export function copyDatabase(source: string, name: string): string {
  const dir = path.resolve(".tmp", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "waitlist.db");
  const original = new Database(source);
  original.pragma("wal_checkpoint(TRUNCATE)");
  original.close();
  copyFileSync(source, file);
  for (const suffix of ["-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
  // A seed kept from an older checkout gets the migrations added since (the copy, never the seed).
  execFileSync(path.join("node_modules", ".bin", "tsx"), ["prisma/migrate.ts"], {
    env: { ...process.env, DATABASE_URL: `file:${file}` },
    stdio: "pipe",
  });
  const copy = new Database(file, { readonly: true });
  console.log(`On a copy of ${source} (${copy.prepare("SELECT count(*) AS n FROM waitlist_entries").pluck().get()} entries)`);
  copy.close();
  return file;
}

/**
 * A database of `count` made-up sign-ups (npm run db:seed), made once under .tmp/bench-operator/
 * and kept for later runs (a million takes about three minutes to seed), or `file` as given.
 */
export function seededDatabase(count: number, file?: string): string {
  const seeded = path.resolve(file ?? path.join(".tmp", "bench-operator", `seed-${count}.db`));
  if (existsSync(seeded)) return seeded;
  mkdirSync(path.dirname(seeded), { recursive: true });
  const env = { ...process.env, DATABASE_URL: `file:${seeded}` };
  execFileSync(path.join("node_modules", ".bin", "tsx"), ["prisma/migrate.ts"], { env, stdio: "inherit" });
  execFileSync(path.join("node_modules", ".bin", "tsx"), ["prisma/seed.ts", "--count", String(count)], { env, stdio: "inherit" });
  return seeded;
}

const HELLO_WORLD_DIR = path.join("bench", "hello-world");

/** Builds the site unless a production build is already there (`fresh`: always). */
export function ensureBuild(fresh = false): void {
  if (!fresh && existsSync(path.join(".next", "BUILD_ID"))) return;
  console.log("Building the site (npm run build) ...");
  execFileSync("npm", ["run", "build"], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
}

let bundled: Promise<string> | undefined;
/**
 * node's arguments that run the production server as `npm start` does (scripts/build/server-bundle.ts),
 * bundled from the sources once per process: a test never runs an older server.ts than the one here.
 */
export async function serverEntry(): Promise<string[]> {
  await (bundled ??= bundleServer());
  return [...SERVER_NODE_ARGS];
}

/** Builds the hello-world fixture (bench/hello-world) with the same Next.js. */
export function buildHelloWorld(): void {
  console.log("Building the hello-world fixture (next build bench/hello-world) ...");
  execFileSync(path.join("node_modules", ".bin", "next"), ["build", HELLO_WORLD_DIR], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
}

function rssMiBOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kib / 1024;
}

async function waitUntilServing(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before serving`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not answer at ${url} within ${timeoutMs} ms`);
}

/** `next start` on the hello-world fixture. */
export async function startHelloWorld(port: number): Promise<SiteServer> {
  return startServerProcess(
    port,
    [path.join("node_modules", "next", "dist", "bin", "next"), "start", HELLO_WORLD_DIR, "--port", String(port), "--hostname", "127.0.0.1"],
    {},
    "/",
    false,
  );
}

export async function startSiteServer(options: {
  port: number;
  /** The SQLite file, or `url`: any DATABASE_URL. */
  databaseFile?: string;
  url?: string;
  /** A value of undefined removes that variable from the server's environment. */
  env?: Record<string, string | undefined>;
  /** The script to run instead of server.ts (the load benchmark's baselines). */
  script?: string;
  /** Modules loaded into the server first (node --require), such as the fault tests' probe. */
  preload?: string[];
  /** More options for node itself (the profiler's --cpu-prof). */
  nodeArgs?: string[];
  /** Keep what the server writes to standard output (its log), in a file of its own under .tmp/server-logs. */
  output?: boolean;
  /** Or write it to this file: a benchmark's choice. */
  logFile?: string;
  /** The path polled until the server answers 200 (default: a security question). */
  readyPath?: string;
}): Promise<SiteServer> {
  // The server as `npm start` runs it (its bundle, made again first), or a baseline script through
  // tsx; node itself either way, so signals and /proc figures are the server's own.
  const entry = options.script ? ["--import", "tsx", options.script] : await serverEntry();
  return startServerProcess(
    options.port,
    [
      ...(options.nodeArgs ?? []),
      ...(options.preload ?? []).flatMap((file) => ["--require", path.resolve(file)]),
      ...entry,
      "--port",
      String(options.port),
    ],
    {
      DATABASE_URL: options.url ?? `file:${options.databaseFile}`,
      // The address the build was made for: a production server refuses to start with another (lib/site/start.ts).
      SITE_URL: builtSiteUrl() ?? process.env.SITE_URL,
      // A node or V8 flag to try on the server alone, not on the load generator (docs/performance.md).
      ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
      ...options.env,
    },
    options.readyPath ?? "/api/waitlist/challenge",
    options.logFile
      ? { file: options.logFile, temporary: false }
      : options.output
        ? { file: serverLogFile(options.port), temporary: true }
        : false,
  );
}

/**
 * A new file for a server's standard output, read into memory and removed once the server has
 * exited. Never a pipe to this process: writes to a pipe are synchronous on Linux, so a test busy
 * with thousands of sockets of its own would make the server wait on its log lines, slowing it in a
 * way no real deployment does.
 */
function serverLogFile(port: number): string {
  const dir = path.resolve(".tmp", "server-logs");
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${port}-${process.pid}-${Date.now()}.log`);
}

/** Throws if something already listens on the port: a server left over from an earlier run would be measured instead. */
async function assertPortFree(port: number): Promise<void> {
  const inUse = await new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
  if (inUse) throw new Error(`port ${port} is already in use (a server from an earlier run?); stop it first, e.g. fuser -k ${port}/tcp`);
}

async function startServerProcess(
  port: number,
  args: string[],
  env: Record<string, string | undefined>,
  readyPath: string,
  /** Written to this file (output() reads it; a temporary one is removed when the server exits), or dropped. */
  keepOutput: { file: string; temporary: boolean } | false,
): Promise<SiteServer> {
  const url = `http://127.0.0.1:${port}`;
  await assertPortFree(port);
  const probe = ["--expose-gc", "--require", path.resolve("bench/support/memory-probe.cjs")];
  const environment = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", HOSTNAME: "127.0.0.1", ...env } as NodeJS.ProcessEnv;
  for (const [name, value] of Object.entries(environment)) if (value === undefined) delete environment[name];
  const logFd = keepOutput ? openSync(keepOutput.file, "w") : undefined;
  const child: ChildProcess = spawn(process.execPath, [...probe, ...args], {
    env: environment,
    stdio: ["ignore", logFd ?? "ignore", "pipe"],
  });
  // The child has its own copy of the file's descriptor.
  if (logFd !== undefined) closeSync(logFd);
  let finalOutput: string | undefined;
  if (keepOutput && keepOutput.temporary)
    child.once("exit", () => {
      finalOutput = readFileSync(keepOutput.file, "utf8");
      rmSync(keepOutput.file, { force: true });
    });
  let stderr = "";
  const memoryReports: ((line: string) => void)[] = [];
  child.stderr?.on("data", (chunk: Buffer) => {
    const text = chunk.toString();
    for (const line of text.split("\n")) if (line.startsWith("MEMORY ")) memoryReports.shift()?.(line.slice(7));
    stderr = keepOutput ? stderr + text : (stderr + text).slice(-4_000);
  });
  try {
    await waitUntilServing(url + readyPath, child, 60_000);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\n${stderr.slice(-4_000)}`);
  }
  return {
    url,
    pid: child.pid!,
    child,
    output: () => finalOutput ?? (keepOutput ? readFileSync(keepOutput.file, "utf8") : ""),
    errorOutput: () => stderr,
    rssMiB: () => rssMiBOf(child.pid!),
    memoryAfterGc: () =>
      new Promise((resolve) => {
        memoryReports.push((json) => resolve(JSON.parse(json)));
        child.kill("SIGUSR2");
      }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
