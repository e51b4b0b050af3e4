/**
 * What a page, a server action or a route handler did not catch, as one line of the site's log
 * (Next's onRequestError, wired in instrumentation.ts). Next prints such an error to standard
 * error as text and answers 500; this puts it where an operator finds the others
 * (`select(.fault)`; docs/operations.md), under the request's id and route.
 *
 * A page that failed because the database could not answer just then is answered 503 by the
 * front door (lib/db/request-scope.ts), and logged here as that fault, at warn: a library may
 * have wrapped the database's error in one of its own (better-auth's "Failed to get session"),
 * so the request's scope decides, not only the error. An error seen by the connection only
 * here is noted in the scope too, so it gets the 503 as well.
 */
import "server-only";
import type { Instrumentation } from "next";
import { noteDatabaseUnavailable, temporaryKindInRequest } from "../db/request-scope";
import { REQUEST_ID_HEADER } from "../http";
import { errorFields, firstReport, log } from "../log";

export const logRequestError: Instrumentation.onRequestError = (error, request, context) => {
  // Next reports an error once for each component it reached (the console's layout and its page): logged once.
  if (!firstReport(error)) return;
  const id = request.headers[REQUEST_ID_HEADER];
  const fields = { request_id: Array.isArray(id) ? id[0] : id, route: context.routePath, kind: context.routeType, ...errorFields(error) };
  const temporary = temporaryKindInRequest(error);
  if (temporary) {
    noteDatabaseUnavailable();
    log.warn({ fault: temporary, ...fields }, "the database could not answer for the page just then");
  } else log.error({ fault: "unexpected", ...fields }, "a page or handler failed");
};
