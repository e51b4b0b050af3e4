/**
 * Work run where the data is: a task is a function of a Prisma Client and a
 * plain input, named by the module and export it lives in. On the embedded
 * file the client's connection lives in a thread of its own
 * (worker-connection.ts), and a task runs there, on a Prisma Client of that
 * thread over the same connection: the main thread sends the input and gets
 * the answer, one message each way. On any other database it runs here, on the
 * client it was given. Either way it goes through Prisma Client, and its
 * queries take their turn with everyone else's.
 *
 * Why: each call through Prisma Client costs a fixed 0.2-0.3 ms of CPU (it
 * serialises the request and compiles it in WebAssembly), and on the sign-up
 * path that cost was paid on the main thread, the one every request needs
 * (docs/performance.md, issue 29). The thread is idle most of the time.
 *
 * A task module is loaded by that thread from its source (through tsx), so it
 * imports only what it needs: the generated client, types, small pure helpers.
 * Its input and output cross between threads, so they are plain values
 * (strings, numbers, bigints, arrays, plain objects).
 */
import "server-only";
import type { Database } from "./index";

export type DatabaseTask<Input, Output> = {
  /** The module that exports `run`, from the project root ("lib/waitlist/signup-writes.ts"). */
  module: string;
  /** The name `run` is exported under there. */
  name: string;
  run: (database: Database, input: Input) => Promise<Output>;
};

/** Runs a task in the client's database thread, given one; set on the client by createDatabase. */
export type TaskRunner = (module: string, name: string, input: unknown) => Promise<unknown>;

/**
 * Where a client keeps its thread's runner. A symbol from the global registry: server.ts and
 * each route bundle have their own copy of this module, and share one client (lib/singleton.ts).
 */
const RUNNER = Symbol.for("fieldcrew.databaseTaskRunner");

export function attachTaskRunner(database: Database, runner: TaskRunner): void {
  Object.defineProperty(database, RUNNER, { value: runner });
}

/**
 * Runs `task` in the database's thread when it has one, else here on `database` itself. A task
 * that fails in the thread fails here with the thread's error, its stack followed by the frames
 * that asked for it (taken once per task, not per row), so the log still says where in our code.
 */
export async function runTask<Input, Output>(database: Database, task: DatabaseTask<Input, Output>, input: Input): Promise<Output> {
  const runner = (database as unknown as Record<symbol, TaskRunner | undefined>)[RUNNER];
  if (!runner) return task.run(database, input);
  const askedFrom = new Error();
  try {
    return (await runner(task.module, task.name, input)) as Output;
  } catch (error) {
    if (error instanceof Error && askedFrom.stack) {
      error.stack = `${error.stack ?? String(error)}\n    in the database thread, task ${task.name}, asked${askedFrom.stack.slice(askedFrom.stack.indexOf("\n"))}`;
    }
    throw error;
  }
}

/** A failure a task returns beside its results (not thrown, because part of its work stands): plain data that crosses threads. */
export type TaskFailure = { name: string; message: string; code?: unknown; meta?: unknown; stack?: string };

export function taskFailure(error: unknown): TaskFailure {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const { code, meta } = error as { code?: unknown; meta?: unknown };
  let plainMeta: unknown;
  try {
    plainMeta = meta === undefined ? undefined : JSON.parse(JSON.stringify(meta, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value)));
  } catch {
    plainMeta = undefined;
  }
  return { name: error.name, message: error.message, code: typeof code === "string" || typeof code === "number" ? code : undefined, meta: plainMeta, stack: error.stack };
}

/** The failure as an Error again, for the checks (isTemporary) and the log. */
export function errorOf(failure: TaskFailure): Error {
  const error = Object.assign(new Error(failure.message), { name: failure.name, code: failure.code, meta: failure.meta });
  if (failure.stack) error.stack = failure.stack;
  return error;
}
