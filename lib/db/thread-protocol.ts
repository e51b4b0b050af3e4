/**
 * What crosses between the main thread (./worker-connection.ts) and the database thread
 * (./worker.mjs, plain JavaScript checked by TypeScript through these types): the thread's
 * settings, each request (one operation of Prisma's driver adapter), and each reply.
 */
import "server-only";
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";

/** The thread's workerData. */
export type ThreadSettings = {
  driver: "better-sqlite3" | "libsql";
  /** better-sqlite3's adapter's settings: the file, that it must exist, SQLite's busy timeout. */
  config: { url: string; fileMustExist: true; timeout: number };
  /** A request or open transaction that takes this long (ms) is reported with its reply (slow_query). */
  slowMs: number;
  /** Run on each new connection before its first query (better-sqlite3). */
  setup: string;
  /** Leading comments that ask for other connection settings for one statement, and how to put them back. */
  markers: { marker: string; set: string; reset: string }[];
};

/** Prisma's driver adapter, which the thread runs on the file. */
export type ThreadAdapter = Awaited<ReturnType<SqlDriverAdapterFactory["connect"]>>;

/** A statement and its values, as Prisma's adapter takes them. */
type Statement = Parameters<ThreadAdapter["queryRaw"]>[0];

/** One operation of the adapter; `tx`: the transaction it runs in (a number the thread gave it). */
export type ThreadRequest = { id: number; tx?: number } & (
  | { op: "queryRaw" | "executeRaw"; arg: Statement }
  | { op: "executeScript"; arg: string }
  | { op: "startTransaction"; arg?: Parameters<ThreadAdapter["startTransaction"]>[0] }
  | { op: "commit" | "rollback" | "shedConnection" | "dispose"; arg?: undefined }
);

export type ThreadOp = ThreadRequest["op"];

/** An error as it can cross: the main side turns it back into one Prisma recognises by its name and cause. */
export type ThreadFailure = { name?: string; message?: string; cause?: unknown; code?: string };

/**
 * The answer to a request. slowMs: the request kept the thread that long, of which cpuMs on a CPU
 * and queuedMs ready but waiting for one (Linux only); openMs: the transaction it ended was open that
 * long, firstStatement its first statement (each only past slowMs).
 */
export type ThreadReply = ({ id: number; ok: true; value: unknown } | { id: number; ok: false; error: ThreadFailure }) & {
  slowMs?: number;
  cpuMs?: number;
  queuedMs?: number;
  openMs?: number;
  firstStatement?: string;
};

/** The thread's first message: the connection is open, or why not. */
export type ThreadReady = { ready: true } | { ready: false; error: ThreadFailure };
