/**
 * `npm run waitlist -- ARGS` for tests: in this process (lib/cli/command-line.ts, everything
 * the command does after Node has started) with pipes for its standard streams, or as the real
 * process where only a process shows it (exit codes, a terminal, memory). Starting a process costs
 * most of a second, several on a busy machine; a test file ran 73 of them.
 */
import { spawnSync } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { runCommandLine } from "@/lib/cli/command-line";

export type CommandRun = { status: number | null; stdout: string; stderr: string };
/** What the command reads: standard input, and environment variables over this process's own. */
type CommandOptions = { input?: string; env?: Record<string, string | undefined> };

/** A stream that keeps what is written to it, as a pipe to the test would. */
function collected(): Writable & { text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return Object.assign(stream, { text: () => Buffer.concat(chunks).toString("utf8") });
}

/** The command in this process; `env` is set for the run and put back afterwards. */
export async function waitlistCommand(args: string[], options: CommandOptions = {}): Promise<CommandRun> {
  const [stdout, stderr] = [collected(), collected()];
  const overridden = Object.entries(options.env ?? {});
  const before = overridden.map(([name]) => [name, process.env[name]] as const);
  const set = (name: string, value: string | undefined) => (value === undefined ? delete process.env[name] : (process.env[name] = value));
  for (const [name, value] of overridden) set(name, value);
  try {
    const status = await runCommandLine(args, { stdout, stderr, stdin: Readable.from([options.input ?? ""]) });
    return { status, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    for (const [name, value] of before) set(name, value);
  }
}

/** The real command as its own process (`node scripts/waitlist.mjs`, what `npm run waitlist` runs). */
export function waitlistProcess(args: string[], options: CommandOptions & { preload?: string; heapMiB?: number } = {}): CommandRun {
  const result = spawnSync(
    process.execPath,
    [
      ...(options.heapMiB ? [`--max-old-space-size=${options.heapMiB}`] : []),
      ...(options.preload ? ["--require", options.preload] : []),
      "scripts/waitlist.mjs",
      ...args,
    ],
    { encoding: "utf8", input: options.input ?? "", env: { ...process.env, ...options.env }, maxBuffer: 256 * 1024 * 1024 },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
