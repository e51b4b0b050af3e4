/**
 * Which database failures are temporary: the database cannot take the write
 * now (another process holds the lock, the disk is full, an I/O error, the file
 * cannot be opened, the connection is restarting or did not answer in time), as
 * opposed to a refusal of this one row (a constraint) or a bug. A temporary
 * failure means nothing was written: the visitor gets 503 with Retry-After and
 * can send the same sign-up again (docs/operations.md, "When things go wrong").
 */
import "server-only";
import type { FaultKind } from "../log";

/**
 * Marks a DatabaseUnavailable whichever copy of this module made it: server.ts (bundled by
 * scripts/build/server-bundle.ts) and Next's route bundles each have their own copy, and share one
 * database client (lib/singleton.ts), so an error thrown by one copy's class reaches the other's
 * checks.
 */
const UNAVAILABLE_BRAND = Symbol.for("fieldcrew.DatabaseUnavailable");

function unavailableKind(value: unknown): DatabaseUnavailable["kind"] | null {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[UNAVAILABLE_BRAND] === true
    ? (value as DatabaseUnavailable).kind
    : null;
}

/** The database cannot be reached or used right now; its message says why, for the log. */
export class DatabaseUnavailable extends Error {
  readonly [UNAVAILABLE_BRAND] = true;

  constructor(
    message: string,
    /** What an operator looks for in the log. */
    readonly kind: Extract<
      FaultKind,
      "database_worker_died" | "database_open_failed" | "database_query_deadline" | "database_unavailable"
    > = "database_unavailable",
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "DatabaseUnavailable";
  }
}

type TemporaryKind = Extract<FaultKind, "database_busy"> | DatabaseUnavailable["kind"];

/** SQLite's primary result codes that say "not now", by name and by number (libSQL reports numbers). */
const LOCKED = ["SQLITE_BUSY", "SQLITE_LOCKED"];
const UNAVAILABLE = [
  "SQLITE_FULL",
  "SQLITE_IOERR",
  "SQLITE_CANTOPEN",
  "SQLITE_NOTADB",
  "SQLITE_CORRUPT",
  "SQLITE_READONLY",
  "SQLITE_PROTOCOL",
];
const LOCKED_NUMBERS = new Set([5, 6]);
const UNAVAILABLE_NUMBERS = new Set([8, 10, 11, 13, 14, 15, 26]);
/**
 * The same conditions as SQLite words them, for errors that carry only a message. And Prisma's
 * P2028 when a transaction could not *start* in time (its maxWait: another transaction held the
 * connection, itself waiting on the lock): nothing of it ran. Other P2028s (an expired one) stay
 * unexpected.
 */
const LOCKED_TEXT = /database (table )?is locked|SQLITE_BUSY|SQLITE_LOCKED|Unable to start a transaction in the given time/i;
const UNAVAILABLE_TEXT =
  /database or disk is full|disk I\/O error|unable to open database|file is not a database|database disk image is malformed|attempt to write a readonly database|SQLITE_(FULL|IOERR|CANTOPEN|NOTADB|CORRUPT|READONLY)/i;

/** Prisma's codes for "the database timed out / cannot be reached" (SQLITE_BUSY becomes P1008 through the better-sqlite3 adapter). */
const PRISMA_LOCKED = new Set(["P1008"]);
const PRISMA_UNAVAILABLE = new Set(["P1001", "P1002", "P1017"]);

/** Everything an error says about itself, its causes and Prisma's meta included. */
function* layers(error: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (depth > 5 || typeof error !== "object" || error === null) return;
  const layer = error as Record<string, unknown>;
  yield layer;
  yield* layers(layer.cause, depth + 1);
  yield* layers(layer.meta, depth + 1);
  if (layer.meta && typeof layer.meta === "object") yield* layers((layer.meta as Record<string, unknown>).driverAdapterError, depth + 1);
}

/** The kind a result code says, by name (SQLITE_IOERR_WRITE is an SQLITE_IOERR) or number (its low byte is the primary code). */
function kindOfCode(code: unknown): TemporaryKind | null {
  if (typeof code === "string") {
    if (PRISMA_LOCKED.has(code) || LOCKED.some((name) => code.startsWith(name))) return "database_busy";
    if (PRISMA_UNAVAILABLE.has(code) || UNAVAILABLE.some((name) => code.startsWith(name))) return "database_unavailable";
  }
  if (typeof code === "number") {
    if (LOCKED_NUMBERS.has(code & 0xff)) return "database_busy";
    if (UNAVAILABLE_NUMBERS.has(code & 0xff)) return "database_unavailable";
  }
  return null;
}

/** The kind of temporary failure this error is, or null when it is not one (a constraint, a bug). */
export function temporaryKind(error: unknown): TemporaryKind | null {
  for (const layer of layers(error)) {
    const unavailable = unavailableKind(layer);
    if (unavailable) return unavailable;
    for (const code of [layer.code, layer.originalCode, layer.rawCode, layer.extendedCode]) {
      const kind = kindOfCode(code);
      if (kind) return kind;
    }
    for (const text of [layer.message, layer.originalMessage]) {
      if (typeof text !== "string") continue;
      if (LOCKED_TEXT.test(text)) return "database_busy";
      if (UNAVAILABLE_TEXT.test(text)) return "database_unavailable";
    }
  }
  return null;
}

export function isTemporary(error: unknown): boolean {
  return temporaryKind(error) !== null;
}

/** SQLite's answers that mean the disk, not the statement, refuses writes: in words for /api/health. */
const WRITE_FAILURES: { codes: string[]; number: number; text: RegExp; reason: string }[] = [
  { codes: ["SQLITE_FULL"], number: 13, text: /database or disk is full/i, reason: "the disk holding the database is full" },
  {
    codes: ["SQLITE_READONLY"],
    number: 8,
    text: /attempt to write a readonly database/i,
    reason: "the database cannot be written (read-only)",
  },
  { codes: ["SQLITE_IOERR"], number: 10, text: /disk I\/O error/i, reason: "the disk reported an I/O error" },
  {
    codes: ["SQLITE_CORRUPT", "SQLITE_NOTADB"],
    number: 11,
    text: /database disk image is malformed|file is not a database/i,
    reason: "the database file is damaged",
  },
];

/** Why the disk refused this write (see WRITE_FAILURES), or null when the error is of another kind. */
export function writeFailureOf(error: unknown): string | null {
  for (const layer of layers(error)) {
    for (const failure of WRITE_FAILURES) {
      for (const code of [layer.code, layer.originalCode, layer.rawCode, layer.extendedCode]) {
        if (typeof code === "string" && failure.codes.some((name) => code.startsWith(name))) return failure.reason;
        if (typeof code === "number" && (code & 0xff) === failure.number) return failure.reason;
      }
      for (const text of [layer.message, layer.originalMessage])
        if (typeof text === "string" && failure.text.test(text)) return failure.reason;
    }
  }
  return null;
}
