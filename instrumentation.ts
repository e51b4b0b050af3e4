/**
 * Next's hooks for the server: what a page, a server action or a route handler did not catch
 * goes to the site's log (lib/site/request-errors.ts).
 *
 * Next builds this file for the Edge runtime as well as for Node, though the site has no Edge
 * route. The log is Node's (pino, process streams), so it is loaded in `register`, which Next
 * awaits once per runtime before the first request, and only in Node: the Edge build then
 * carries none of it (a static import made `npm run build` print seven warnings about Node
 * APIs), and the hook itself stays synchronous, so an error is noted in the request's scope
 * before the front door sees the 500.
 */
import type { Instrumentation } from "next";

let logRequestError: Instrumentation.onRequestError | undefined;

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") ({ logRequestError } = await import("@/lib/site/request-errors"));
}

export const onRequestError: Instrumentation.onRequestError = (...args) => logRequestError?.(...args);
