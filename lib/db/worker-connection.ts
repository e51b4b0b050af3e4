/**
 * The embedded file's adapter (better-sqlite3's, or libSQL's with
 * DATABASE_DRIVER=libsql), run in a worker thread (lib/db/worker.mjs) with its
 * one connection. Both engines are synchronous: a statement, and the sync to
 * disk at its commit, would otherwise hold the event loop and every request
 * waiting on it (measured in docs/performance.md). The worker runs Prisma's own
 * adapter, so values and errors are mapped exactly as in-process; this side
 * carries queries over and answers back, and looks after the thread:
 *
 * - **One query at a time.** The adapter locks transactions only against each
 *   other, so a query from elsewhere in the process that arrived while an
 *   interactive transaction was awaiting would run inside it, and be undone
 *   with it. This side sends one query at a time and holds every other back
 *   while a transaction is open (as the libSQL adapter does on its own).
 * - **Every query has a deadline.** No answer within `queryTimeoutMs` (far
 *   longer than SQLite's busy timeout, so only a hung disk or thread reaches
 *   it) rejects the query and ends the thread.
 * - **A dead thread fails loudly and is replaced.** When the thread ends (an
 *   uncaught error, killed, the deadline above), everything waiting on it and
 *   every transaction open on it is rejected at once, the lock is released, and
 *   the next query starts a fresh thread.
 * - **A failed open is not retried in a loop.** A thread that cannot open the
 *   file is ended, and for `reopenAfterMs` every query fails at once with the
 *   same reason instead of starting another thread.
 *
 * Every such failure is a DatabaseUnavailable: temporary, answered 503.
 */
import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";
import { errorFields, log } from "../log";
import { DatabaseUnavailable, temporaryKind } from "./errors";
import { Lock } from "./lock";
import { noteDatabaseUnavailable } from "./request-scope";
import { noteOutcome } from "./write-state";
import type { ThreadFailure, ThreadOp, ThreadReady, ThreadReply, ThreadRequest, ThreadSettings } from "./thread-protocol";

type DriverAdapter = Awaited<ReturnType<SqlDriverAdapterFactory["connect"]>>;

/**
 * Opening starts a thread and loads the engine, which takes seconds on a busy machine: a short
 * query deadline (a test's 500 ms) must not fail it. A hung disk still ends it (the site's query
 * deadline, 15 s, is longer than this anyway).
 */
const MIN_OPEN_TIMEOUT_MS = 10_000;
type DriverTransaction = Awaited<ReturnType<DriverAdapter["startTransaction"]>>;

export type WorkerConnectionOptions = {
  /** Whose engine opens the file: better-sqlite3 (the default driver) or libSQL (DATABASE_DRIVER=libsql). */
  driver: "better-sqlite3" | "libsql";
  /** The SQLite file; it must exist. */
  file: string;
  /** SQLite's busy timeout: how long a write waits for another process's lock. */
  busyTimeoutMs: number;
  /** Run on each new connection before its first query (better-sqlite3; libSQL keeps its defaults). */
  setup: string;
  /**
   * Leading comments that ask for other connection settings for one statement (lib/db/index.ts:
   * WITHOUT_SYNC, WITHOUT_WAITING): what to run before it, and what puts the connection back after.
   */
  markers: { marker: string; set: string; reset: string }[];
  /** The longest any one query may take before the thread is given up as hung. */
  queryTimeoutMs: number;
  /** After a failed open, how long queries fail at once before another open is tried. */
  reopenAfterMs: number;
  /**
   * Checkpoint the write-ahead log from a thread of its own this often (lib/db/checkpointer.mjs),
   * so no query on this connection pays for one; undefined: SQLite's own, inside commits.
   */
  checkpointEveryMs?: number;
  /** The worker's script; tests give one that can be made to crash. */
  script?: string;
  /**
   * A request that keeps the thread busy this long, or a transaction open this long, is logged
   * (slow_query): every other query, sign-ups included, waits for it. 0 logs every request.
   */
  slowQueryMs: number;
};

type Waiting = { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout; op: ThreadOp; arg: unknown };

/** A statement's text for a log line, on one line and shortened (never its values: they are bound apart). */
function shortened(sql: string): string {
  const text = sql.replace(/\s+/g, " ").trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** What a slow request was: its statement (queryRaw, executeRaw, a script), or the operation's name. */
function statementOf(op: string, arg: unknown): string {
  const sql = typeof arg === "string" ? arg : (arg as { sql?: unknown } | undefined)?.sql;
  return typeof sql === "string" ? shortened(sql) : op;
}

function logSlow(reply: ThreadReply, pending: Waiting): void {
  if (reply.slowMs !== undefined)
    log.warn(
      {
        slow_query: {
          op: pending.op,
          ms: reply.slowMs,
          cpu_ms: reply.cpuMs,
          queued_ms: reply.queuedMs,
          statement: statementOf(pending.op, pending.arg),
        },
      },
      "the database was busy with one query",
    );
  if (reply.openMs !== undefined) {
    const statement = `transaction: ${reply.firstStatement === undefined ? "(no statement)" : shortened(reply.firstStatement)}`;
    log.warn({ slow_query: { op: "transaction", ms: reply.openMs, statement } }, "a transaction held the database");
  }
}

/** The worker's error as the main thread's: Prisma recognises a driver error by its name and cause. */
function errorFrom(failure: ThreadFailure): Error {
  return Object.assign(new Error(failure.message), { name: failure.name ?? "Error", cause: failure.cause, code: failure.code });
}

/** One thread and its connection; replaced by a new Thread when it ends. */
class Thread {
  readonly waiting = new Map<number, Waiting>();
  /** Releases the lock held by the transaction open on this thread, if any. */
  releaseTransaction: (() => void) | null = null;
  ended: DatabaseUnavailable | null = null;
  private lastId = 0;

  constructor(
    readonly worker: Worker,
    private readonly queryTimeoutMs: number,
    /** Told once the thread has ended, with how many queries it left unanswered. */
    private readonly onEnd: (thread: Thread, reason: DatabaseUnavailable, unanswered: number) => void,
  ) {
    worker.on("message", (reply: ThreadReply | ThreadReady) => {
      if (!("id" in reply) || typeof reply.id !== "number") return;
      const pending = this.waiting.get(reply.id);
      if (!pending) return;
      this.waiting.delete(reply.id);
      clearTimeout(pending.timer);
      // An idle worker must not keep a finished command (the operator tool, a test) running.
      if (this.waiting.size === 0) worker.unref();
      if (reply.slowMs !== undefined || reply.openMs !== undefined) logSlow(reply, pending);
      const sql = (pending.arg as { sql?: unknown } | undefined)?.sql;
      if (reply.ok) {
        noteOutcome(pending.op, typeof sql === "string" ? sql : undefined);
        pending.resolve(reply.value);
      } else {
        const error = errorFrom(reply.error);
        noteOutcome(pending.op, typeof sql === "string" ? sql : undefined, error);
        pending.reject(error);
      }
    });
    // An error is always followed by "exit", and Node delivers every answer the thread posted before
    // "exit": so the thread ends there, and a query it finished just before failing keeps its answer.
    let failure: Error | undefined;
    worker.on("error", (error) => void (failure = error));
    worker.on("exit", (code) =>
      this.end(
        failure
          ? new DatabaseUnavailable(`the database thread failed: ${failure.message}`, "database_worker_died", { cause: failure })
          : new DatabaseUnavailable(`the database thread exited (code ${code})`, "database_worker_died"),
      ),
    );
  }

  send<T>(op: ThreadOp, arg?: unknown, tx?: number): Promise<T> {
    if (this.ended) return Promise.reject(this.ended);
    return new Promise<T>((resolve, reject) => {
      this.lastId += 1;
      const id = this.lastId;
      const timer = setTimeout(() => {
        this.end(
          new DatabaseUnavailable(`the database did not answer within ${this.queryTimeoutMs} ms (${op})`, "database_query_deadline"),
        );
      }, this.queryTimeoutMs);
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject, timer, op, arg });
      this.worker.ref();
      this.worker.postMessage({ id, op, arg, tx } as ThreadRequest);
    });
  }

  /** Ends the thread on purpose (the client is closing): nothing to report. */
  async close(): Promise<void> {
    if (this.ended) return;
    try {
      await this.send("dispose");
    } finally {
      this.ended = new DatabaseUnavailable("the database connection is closed");
      await this.worker.terminate();
    }
  }

  /** Rejects everything waiting and releases an open transaction's lock, once; the thread is ended. */
  end(reason: DatabaseUnavailable): void {
    if (this.ended) return;
    this.ended = reason;
    const unanswered = this.waiting.size;
    for (const pending of this.waiting.values()) {
      clearTimeout(pending.timer);
      pending.reject(reason);
    }
    this.waiting.clear();
    this.releaseTransaction?.();
    this.releaseTransaction = null;
    void this.worker.terminate();
    this.onEnd(this, reason, unanswered);
  }
}

export function sqliteFileInWorker(options: WorkerConnectionOptions): SqlDriverAdapterFactory {
  const adapterName = options.driver === "libsql" ? "@prisma/adapter-libsql" : "@prisma/adapter-better-sqlite3";
  let current: Thread | null = null;
  let starting: Promise<Thread> | null = null;
  /** Set after a failed open: until `until`, queries fail at once with `reason`. */
  let openFailure: { reason: DatabaseUnavailable; until: number } | null = null;
  let disposed = false;
  let checkpointer: Worker | null = null;

  /** Starts the checkpoint thread once, after the first open succeeded; it never holds the process open. */
  function startCheckpointer(): void {
    if (checkpointer || options.checkpointEveryMs === undefined || disposed) return;
    checkpointer = new Worker(/*turbopackIgnore: true*/ path.join(process.cwd(), "lib", "db", "checkpointer.mjs"), {
      workerData: { driver: options.driver, file: options.file, intervalMs: options.checkpointEveryMs },
    });
    checkpointer.unref();
    checkpointer.on("error", (error) =>
      log.error(
        { fault: "database_unavailable", ...errorFields(error) },
        "the checkpoint thread failed; SQLite checkpoints in commits again",
      ),
    );
  }

  async function stopCheckpointer(): Promise<void> {
    const thread = checkpointer;
    checkpointer = null;
    if (!thread) return;
    const stopped = new Promise((resolve) => {
      thread.once("message", resolve);
      thread.once("exit", resolve);
      setTimeout(resolve, 2_000).unref();
    });
    thread.postMessage("stop");
    await stopped;
    await thread.terminate();
  }

  function onEnd(thread: Thread, reason: DatabaseUnavailable, unanswered: number): void {
    if (current === thread) current = null;
    // A failed open is logged where it is known (start), with when it is tried again.
    if (reason.kind !== "database_open_failed") {
      log.error({ fault: reason.kind, unanswered }, `database connection lost: ${reason.message}; the next query opens a new one`);
    }
  }

  /** Starts a thread and waits until its connection is open; ends it if the open fails. */
  async function start(): Promise<Thread> {
    // A file beside this one in the project, not bundled: each route of the build is a
    // bundle of its own, and a worker needs a file to start from.
    const init = {
      workerData: {
        config: { url: options.file, fileMustExist: true, timeout: options.busyTimeoutMs },
        driver: options.driver,
        slowMs: options.slowQueryMs,
        setup: options.setup,
        markers: options.markers,
      } satisfies ThreadSettings,
    };
    const worker = options.script
      ? new Worker(/*turbopackIgnore: true*/ options.script, init)
      : new Worker(/*turbopackIgnore: true*/ path.join(process.cwd(), "lib", "db", "worker.mjs"), init);
    const thread = new Thread(worker, options.queryTimeoutMs, onEnd);
    try {
      await new Promise<void>((resolve, reject) => {
        const openTimeoutMs = Math.max(options.queryTimeoutMs, MIN_OPEN_TIMEOUT_MS);
        const timer = setTimeout(() => reject(new Error(`not open after ${openTimeoutMs} ms`)), openTimeoutMs);
        worker.once("message", (message: ThreadReady) => {
          clearTimeout(timer);
          if (message.ready) resolve();
          else reject(errorFrom(message.error));
        });
        worker.once("error", (error) => (clearTimeout(timer), reject(error)));
        worker.once("exit", (code) => (clearTimeout(timer), reject(new Error(`exited with code ${code} while opening`))));
      });
    } catch (error) {
      const reason = new DatabaseUnavailable(`the database cannot be opened: ${(error as Error).message}`, "database_open_failed", {
        cause: error,
      });
      openFailure = { reason, until: Date.now() + options.reopenAfterMs };
      thread.end(reason);
      log.error({ fault: "database_open_failed", retry_after_ms: options.reopenAfterMs }, reason.message);
      throw reason;
    }
    openFailure = null;
    worker.unref();
    startCheckpointer();
    return thread;
  }

  /** The live thread, started if there is none (at most once per reopenAfterMs after a failed open). */
  async function thread(): Promise<Thread> {
    if (disposed) throw new DatabaseUnavailable("the database connection is closed");
    if (current && !current.ended) return current;
    if (openFailure && Date.now() < openFailure.until) throw openFailure.reason;
    starting ??= start().finally(() => (starting = null));
    current = await starting;
    return current;
  }

  const lock = new Lock();
  // A query waiting behind a hung one gives up at the same deadline: nothing of it ran.
  const turn = () =>
    lock.acquire(
      options.queryTimeoutMs,
      () => new DatabaseUnavailable(`no turn on the database within ${options.queryTimeoutMs} ms`, "database_query_deadline"),
    );
  /** Notes a temporary failure in the request's scope (./request-scope.ts) and passes it on. */
  const noted = async <T>(answer: Promise<T>): Promise<T> => {
    try {
      return await answer;
    } catch (error) {
      if (temporaryKind(error)) noteDatabaseUnavailable();
      throw error;
    }
  };
  /** One query on the live thread, in its turn. */
  const send = async <T>(op: ThreadOp, arg?: unknown): Promise<T> => {
    const release = await turn();
    try {
      const current = await thread();
      try {
        return await current.send<T>(op, arg);
      } catch (error) {
        // libSQL leaves a statement that failed busy in progress on its connection (worker.mjs).
        if (options.driver === "libsql" && temporaryKind(error) === "database_busy") await current.send("shedConnection").catch(() => {});
        throw error;
      }
    } finally {
      release();
    }
  };
  const run = <T>(op: ThreadOp, arg?: unknown): Promise<T> => noted(send<T>(op, arg));

  const adapter: DriverAdapter = {
    provider: "sqlite",
    adapterName,
    queryRaw: (query) => run("queryRaw", query),
    executeRaw: (query) => run("executeRaw", query),
    executeScript: (script) => run("executeScript", script),
    dispose: async () => {
      disposed = true;
      const last = current;
      current = null;
      await Promise.all([last?.close(), stopCheckpointer()]);
    },
    async startTransaction(isolationLevel): Promise<DriverTransaction> {
      const release = await noted(turn());
      let owner: Thread;
      let started: { tx: number; options: DriverTransaction["options"] };
      try {
        owner = await noted(thread());
        started = await noted(owner.send("startTransaction", isolationLevel));
      } catch (error) {
        release();
        throw error;
      }
      // If the thread ends before the transaction does, the lock is released with it.
      owner.releaseTransaction = release;
      const finish = (end: "commit" | "rollback") => async () => {
        try {
          await noted(owner.send(end, undefined, started.tx));
        } finally {
          owner.releaseTransaction = null;
          release();
        }
      };
      return {
        provider: "sqlite",
        adapterName,
        options: started.options,
        // On the thread the transaction was opened on: never on a replacement. A statement in it
        // can fail busy at once (a transaction that read before it writes gets no wait).
        queryRaw: (query) => noted(owner.send("queryRaw", query, started.tx)),
        executeRaw: (query) => noted(owner.send("executeRaw", query, started.tx)),
        commit: finish("commit"),
        rollback: finish("rollback"),
      };
    },
  };

  return {
    provider: "sqlite",
    adapterName,
    // Opening is lazy and repeatable (above), so Prisma keeps this one adapter for the client's life.
    connect: async () => adapter,
  };
}
