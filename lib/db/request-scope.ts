/**
 * Whether the request being answered met a database that could not answer just then (a
 * DatabaseUnavailable, or SQLite busy past its wait). The front door gives each request handed to
 * Next a scope (lib/site/front-door.ts); the connection notes every temporary failure in it
 * (worker-connection.ts). A page cannot choose its status, so a console page whose session or
 * rows could not be read answers Next's 500: the front door makes that a 503 with Retry-After,
 * as every other temporary condition is answered, because the scope says the database was why.
 */
import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { singleton } from "../singleton";
import { temporaryKind } from "./errors";

export type RequestScope = { databaseUnavailable: boolean };

// One for the process: server.ts's copy of this module and each route bundle's share it.
const scopes = () => singleton("request scope", () => new AsyncLocalStorage<RequestScope>());

/** Runs `handle` with `scope` as the current request's; what it starts asynchronously keeps it. */
export function withinRequestScope<T>(scope: RequestScope, handle: () => T): T {
  return scopes().run(scope, handle);
}

/** Told by the connection of each temporary failure; outside a request (a background job) nothing is noted. */
export function noteDatabaseUnavailable(): void {
  const scope = scopes().getStore();
  if (scope) scope.databaseUnavailable = true;
}

/**
 * Runs a write that is tried again while busy (whileBusy in ./index.ts) and, when it went through
 * in the end, forgets the failures its earlier tries noted: the request did not fail for them, so a
 * bug it meets afterwards is still a 500 and an `unexpected` line, not a 503. A failure noted by a
 * query running beside it in the same request is forgotten with them; a request that awaits two
 * writes at once and fails in one is rare enough to answer 500 instead of 503.
 */
export async function forgetIfRecovered<T>(write: () => Promise<T>): Promise<T> {
  const scope = scopes().getStore();
  const notedBefore = scope?.databaseUnavailable ?? false;
  const result = await write();
  if (scope) scope.databaseUnavailable = notedBefore;
  return result;
}

/**
 * The kind of temporary failure a request's error was: the error's own, or, when a library wrapped
 * the database's error in one of its own (better-auth's "Failed to get session"), what the
 * connection noted in the request's scope. Outside a request, the error's own only.
 */
export function temporaryKindInRequest(error: unknown): ReturnType<typeof temporaryKind> {
  return temporaryKind(error) ?? (scopes().getStore()?.databaseUnavailable ? "database_unavailable" : null);
}
