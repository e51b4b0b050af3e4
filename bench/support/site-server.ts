/**
 * Starts the site's production server (server.ts, as `npm start` runs it) as a
 * child process on a database of its own, for the crash, soak and load runs.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

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
  /** Resident memory of the server process in MiB, from /proc. */
  rssMiB(): number;
  /** After a full garbage collection in the server: RSS and V8 heap in use, MiB. */
  memoryAfterGc(): Promise<{ rss: number; heapUsed: number; external: number }>;
  stop(): Promise<void>;
};

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

/** Builds the site unless a production build is already there. */
export function ensureBuild(): void {
  if (existsSync(path.join(".next", "BUILD_ID"))) return;
  console.log("No production build found; running `npm run build` ...");
  execFileSync("npm", ["run", "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
}

export function rssMiBOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kib / 1024;
}

async function waitUntilServing(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before serving`);
    try {
      const response = await fetch(`${url}/api/waitlist/challenge`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not answer at ${url} within ${timeoutMs} ms`);
}

export async function startSiteServer(options: {
  port: number;
  databaseFile: string;
  env?: Record<string, string>;
  /** The script to run instead of server.ts (the load benchmark's baselines). */
  script?: string;
}): Promise<SiteServer> {
  const url = `http://127.0.0.1:${options.port}`;
  // node --import tsx: one process, so signals and /proc figures are the server's own.
  const probe = ["--expose-gc", "--require", path.resolve("bench/support/memory-probe.cjs")];
  const child = spawn(process.execPath, [...probe, "--import", "tsx", options.script ?? "server.ts", "--port", String(options.port)], {
    env: {
      ...process.env,
      DATABASE_URL: `file:${options.databaseFile}`,
      NEXT_TELEMETRY_DISABLED: "1",
      HOSTNAME: "127.0.0.1",
      ...options.env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const memoryReports: ((line: string) => void)[] = [];
  child.stderr?.on("data", (chunk: Buffer) => {
    const text = chunk.toString();
    for (const line of text.split("\n")) if (line.startsWith("MEMORY ")) memoryReports.shift()?.(line.slice(7));
    stderr = (stderr + text).slice(-4_000);
  });
  try {
    await waitUntilServing(url, child, 60_000);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }
  return {
    url,
    pid: child.pid!,
    child,
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
