/**
 * Next's hook for an error a page, a server action or a route handler did not catch. Next
 * prints such an error to standard error as text and answers 500; this puts it in the site's
 * log as a line an operator finds with the others (`select(.fault)`; docs/operations.md), under
 * the request's id and route.
 *
 * A page that failed because the database could not answer just then is answered 503 by the
 * front door (lib/db/request-scope.ts), and logged here as that fault, at warn: a library may
 * have wrapped the database's error in one of its own (better-auth's "Failed to get session"),
 * so the request's scope decides, not only the error. An error seen by the connection only
 * here is noted in the scope too, so it gets the 503 as well.
 */
import type { Instrumentation } from "next";
import { REQUEST_ID_HEADER } from "@/lib/http";
import { errorFields, log } from "@/lib/log";
import { noteDatabaseUnavailable, temporaryKindInRequest } from "@/lib/db/request-scope";

/** Next reports an error once for each component it reached (the console's layout and its page): logged once. */
const reported = new WeakSet<object>();

export const onRequestError: Instrumentation.onRequestError = (error, request, context) => {
  if (typeof error === "object" && error !== null) {
    if (reported.has(error)) return;
    reported.add(error);
  }
  const id = request.headers[REQUEST_ID_HEADER];
  const fields = { request_id: Array.isArray(id) ? id[0] : id, route: context.routePath, kind: context.routeType, ...errorFields(error) };
  const temporary = temporaryKindInRequest(error);
  if (temporary) {
    noteDatabaseUnavailable();
    log.warn({ fault: temporary, ...fields }, "the database could not answer for the page just then");
  } else log.error({ fault: "unexpected", ...fields }, "a page or handler failed");
};
