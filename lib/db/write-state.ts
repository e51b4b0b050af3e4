/**
 * Whether the embedded database has lately refused writes for a reason of the disk's (full,
 * read-only, an I/O error, a damaged file), as SQLite answered the site's own statements. Health
 * (lib/health.ts) reports it: a site that cannot store sign-ups must not look healthy.
 */
import "server-only";
import { singleton } from "../singleton";
import { writeFailureOf } from "./errors";

/** How long a refused write is reported after the last one, when no write has succeeded since. */
const WRITE_FAILURE_REPORTED_MS = 60_000;

const state = singleton("database writes", () => ({ failure: null as { reason: string; at: number } | null }));

/** Statements that only read: they say nothing about whether writes work again. */
const READ_ONLY = /^\s*(\/\*[\s\S]*?\*\/\s*)*(SELECT|PRAGMA|EXPLAIN)\b/i;

/** Told of every request's outcome by the connection (worker-connection.ts). */
export function noteOutcome(op: string, sql: string | undefined, error?: unknown): void {
  if (error !== undefined) {
    const reason = writeFailureOf(error);
    if (reason) state.failure = { reason, at: Date.now() };
    return;
  }
  // Nothing to clear on the common path: no regex on every query's text.
  if (state.failure === null) return;
  const wrote = op === "commit" || ((op === "executeRaw" || op === "queryRaw") && !(sql !== undefined && READ_ONLY.test(sql)));
  if (wrote) state.failure = null;
}

/** The reason writes were refused, if one was within WRITE_FAILURE_REPORTED_MS and none has succeeded since. */
export function recentWriteFailure(now = Date.now()): string | null {
  const failure = state.failure;
  return failure && now - failure.at < WRITE_FAILURE_REPORTED_MS ? failure.reason : null;
}
