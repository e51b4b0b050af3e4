/**
 * What a page, a server action or a route handler threw reaches the site's log
 * (lib/site/request-errors.ts, Next's onRequestError by way of instrumentation.ts): a bug as an
 * unexpected fault, at error; a database that could not answer as that, at warn, even when a
 * library wrapped the database's error in its own; each error once. That the hook is wired on a
 * real server: tests/faults/database.test.ts ("a database file that cannot be opened").
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { logRequestError } from "@/lib/site/request-errors";
import { DatabaseUnavailable } from "@/lib/db/errors";
import { noteDatabaseUnavailable, withinRequestScope, type RequestScope } from "@/lib/db/request-scope";
import { captureLog } from "@/lib/log";

const request = { path: "/operator/overview", method: "GET", headers: { "x-request-id": "req-1" } };
const context = {
  routerKind: "App Router",
  routePath: "/operator/overview",
  routeType: "render",
  renderSource: "react-server-components",
  revalidateReason: undefined,
} as const;

let captured: ReturnType<typeof captureLog>;
beforeEach(() => (captured = captureLog()));
afterEach(() => captured.stop());

describe("an error a page threw", () => {
  it("is logged as unexpected, at error, with the request's id and route, once however many components it reached", async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'signups')");
    await logRequestError(bug, request, context);
    await logRequestError(bug, request, context);
    expect(captured.lines).toEqual([
      expect.objectContaining({
        level: "error",
        fault: "unexpected",
        request_id: "req-1",
        route: "/operator/overview",
        kind: "render",
        error: expect.objectContaining({ type: "TypeError", message: bug.message }),
      }),
    ]);
  });

  it("that says the database could not answer is logged as that, at warn, and the request's scope is told (the front door answers 503)", async () => {
    const scope: RequestScope = { databaseUnavailable: false };
    await withinRequestScope(scope, () => logRequestError(new DatabaseUnavailable("no turn", "database_query_deadline"), request, context));
    expect(scope.databaseUnavailable).toBe(true);
    expect(captured.lines).toEqual([expect.objectContaining({ level: "warn", fault: "database_query_deadline", request_id: "req-1" })]);
  });

  it("wrapped by a library after the connection told the request's scope is still the database's fault, not a bug", async () => {
    const scope: RequestScope = { databaseUnavailable: false };
    await withinRequestScope(scope, async () => {
      noteDatabaseUnavailable();
      await logRequestError(new Error("Failed to get session"), request, context);
    });
    expect(captured.lines).toEqual([
      expect.objectContaining({ level: "warn", fault: "database_unavailable", route: "/operator/overview" }),
    ]);
  });
});
