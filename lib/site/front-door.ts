/**
 * What every request meets before Next.js (docs/security.md, "The front door"): its id and log
 * line, the client's address as the proxies we trust say it, the security headers, and the
 * refusals that must come before a byte of the body is read or Next is woken: a path that is not
 * valid percent-encoding (400), a body over MAX_REQUEST_BYTES (413), a form posted to a page from
 * another site (403), too many requests in flight (503). A page's visit beacon and <noscript>
 * image are answered here too (VISIT_PATH): Next's routing alone costs about as much as a whole
 * sign-up (docs/analytics.md); so is a visitor's link the site did not sign (./invalid-entry-link.ts).
 * What goes out past the refusals is compressed here, with Brotli where the browser accepts it
 * (./compression.ts).
 */
import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { visitHandler } from "../analytics/site";
import { ENTRY_PAGE_PATH, UNSUBSCRIBE_PAGE_PATH, UNSUBSCRIBE_PATH, VISIT_PATH } from "../content/paths";
import { withinRequestScope, type RequestScope } from "../db/request-scope";
import type { Env } from "../env";
import {
  ERROR_CODE_HEADER,
  errorSentence,
  errorStatus,
  methodNotAllowed,
  REQUEST_ID_HEADER,
  retryLater,
  textErrorHeaders,
  type ErrorCode,
} from "../http";
import { errorFields, log } from "../log";
import { CLIENT_ADDRESS_HEADER, clientAddressOf } from "../security/client-address";
import { perRequestPageHeaders, VISITOR_PAGE_PRIVACY } from "../security/headers";
import { isForeignPagePost } from "../security/origin";
import type { PagePolicies } from "../security/page-policies";
import { hasBody, whenBodyArrives } from "../security/request-body";
import { compressAnswer } from "./compression";
import { isUnsignedEntryLink, type InvalidEntryLinkPage } from "./invalid-entry-link";

/**
 * No route takes a larger body (the sign-up's 16 KiB is the largest). Routes still read with their
 * own tighter bounds (lib/http.ts).
 */
const MAX_REQUEST_BYTES = 64 * 1024;
/** How long the rest of a refused body is read and discarded before the connection is closed. */
const LINGER_MS = 2_000;
/** Answered even past WAITLIST_MAX_IN_FLIGHT: a load balancer must see the instance as it is. */
const HEALTH_PATH = "/api/health";

type FrontDoorOptions = {
  env: Env;
  dev: boolean;
  policies: PagePolicies;
  /** The security headers every answer carries. */
  headers: [string, string][];
  /** Next's request handler. */
  next: (request: IncomingMessage, response: ServerResponse) => Promise<void>;
  /** The refusal of a visitor's link the site did not sign, as whole HTML (production; ./invalid-entry-link.ts). */
  invalidEntryLink?: InvalidEntryLinkPage;
};

/** Paths whose next segment is a visitor's token: the key to their data, or to stopping their mail. */
const TOKEN_PATHS = [ENTRY_PAGE_PATH, UNSUBSCRIBE_PATH, UNSUBSCRIBE_PAGE_PATH];
/** A signed token anywhere else (a public id and its signature): never logged either. */
const SIGNED_TOKEN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[A-Za-z0-9_-]+/gi;

/** The path as logged: with ":token" for any visitor's token, whole or cut short. */
function routeOf(pathname: string): string {
  const prefix = TOKEN_PATHS.find((path) => pathname.startsWith(`${path}/`));
  if (prefix) {
    const after = pathname.slice(prefix.length + 1);
    const slash = after.indexOf("/");
    return `${prefix}/:token${slash < 0 ? "" : after.slice(slash)}`.replace(SIGNED_TOKEN, ":token").slice(0, 200);
  }
  return pathname.replace(SIGNED_TOKEN, ":token").slice(0, 200);
}

/**
 * In a terminal, a page's or asset's successful GET and the health checks are noise next to what a
 * developer looks for: logged at debug there (LOG_LEVEL=debug shows them). A service's log keeps all.
 */
function quietInTerminal(method: string | undefined, pathname: string, status: number): boolean {
  if (process.stdout.isTTY !== true || status >= 400) return false;
  return pathname === HEALTH_PATH || ((method === "GET" || method === "HEAD") && !pathname.startsWith("/api/"));
}

/** Whether the path is valid percent-encoding: Next would answer a broken one with a 500. */
function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** An error answer before Next: lib/http.ts errorAnswer's text form, on Node's response. */
function answerAtOnce(
  response: ServerResponse,
  code: ErrorCode,
  options: { status?: number; detail?: string; headers?: Record<string, string> } = {},
): void {
  response.writeHead(options.status ?? errorStatus(code), textErrorHeaders(code, options.headers));
  response.end(errorSentence(code, options.detail));
}

const visitMethodNotAllowed = () => methodNotAllowed(["POST"], "Pages send their visits here with POST.");

/** The visit handler (lib/analytics/handler.ts), given the request as a fetch Request. */
async function serveVisit(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  const fetchRequest = new Request(`http://${request.headers.host ?? "localhost"}${request.url ?? VISIT_PATH}`, {
    method: request.method,
    headers,
    ...(request.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
  });
  // POST: a page's beacon; GET: the <noscript> image of a page seen without JavaScript.
  const answer =
    request.method === "POST"
      ? await visitHandler().post(fetchRequest)
      : request.method === "GET"
        ? await visitHandler().pixel(fetchRequest)
        : visitMethodNotAllowed();
  response.statusCode = answer.status;
  answer.headers.forEach((value, name) => response.setHeader(name, value));
  response.end(Buffer.from(await answer.arrayBuffer()));
}

/**
 * A page cannot choose its status: one whose session or rows could not be read because the
 * database could not answer just then (../db/request-scope.ts) ends in Next's 500. That is a
 * temporary condition, so it is answered as the site answers every other: 503 with Retry-After.
 * Any other 500 stays a 500.
 */
function answerUnavailableAs503(response: ServerResponse, scope: RequestScope, requestId: string): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    if (status === 500 && scope.databaseUnavailable) {
      log.warn({ fault: "database_unavailable", request_id: requestId }, "page could not read the database: 503");
      for (const [name, value] of Object.entries(retryLater())) this.setHeader(name, value);
      this.setHeader("Cache-Control", "no-store");
      return (writeHead as (...args: unknown[]) => ServerResponse).call(this, 503, ...rest);
    }
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, status, ...rest);
  } as ServerResponse["writeHead"];
}

/** The server's request listener. */
export function createFrontDoor({
  env,
  dev,
  policies,
  headers,
  next,
  invalidEntryLink,
}: FrontDoorOptions): (request: IncomingMessage, response: ServerResponse) => void {
  const siteOrigin = new URL(env.SITE_URL).origin;
  /** Requests being handled now; past WAITLIST_MAX_IN_FLIGHT, new ones get 503 at once. */
  let inFlight = 0;

  function failed(response: ServerResponse, requestId: string, error: unknown, what: string): void {
    log.error({ fault: "unexpected", request_id: requestId, ...errorFields(error) }, what);
    if (!response.headersSent) answerAtOnce(response, "unexpected");
    else response.destroy();
  }

  /** To the visit handler or Next, with a per-request page policy where the page needs one. */
  function handOver(request: IncomingMessage, response: ServerResponse, pathname: string, requestId: string): void {
    // Brotli or gzip for what follows (./compression.ts); the refusals above are too short to gain from it.
    compressAnswer(request, response);
    if (pathname === VISIT_PATH) {
      serveVisit(request, response).catch((error: unknown) => failed(response, requestId, error, "visit handler failed"));
      return;
    }
    // A visitor's link the site did not sign: the prerendered refusal, as whole HTML (./invalid-entry-link.ts).
    if (invalidEntryLink && (request.method === "GET" || request.method === "HEAD") && isUnsignedEntryLink(pathname)) {
      response.writeHead(404, {
        ...VISITOR_PAGE_PRIVACY,
        "Content-Security-Policy": invalidEntryLink.policy,
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        [ERROR_CODE_HEADER]: "link_invalid",
      });
      response.end(request.method === "HEAD" ? undefined : invalidEntryLink.html);
      return;
    }
    // Pages rendered per request get a policy with a nonce of their own (Next reads it from the request's policy).
    // In development the development policy stays (React's dev build evaluates code); the page's other
    // headers (no Referer from a visitor's own page, not cached, not indexed) hold there too.
    const perRequestPage = perRequestPageHeaders(pathname);
    if (perRequestPage) {
      const { "Content-Security-Policy": policy, ...others } = perRequestPage(randomBytes(16).toString("base64"));
      if (!dev && policy) {
        request.headers["content-security-policy"] = policy;
        response.setHeader("Content-Security-Policy", policy);
      }
      for (const [name, value] of Object.entries(others)) response.setHeader(name, value);
    }
    const scope: RequestScope = { databaseUnavailable: false };
    answerUnavailableAs503(response, scope, requestId);
    withinRequestScope(scope, () => next(request, response)).catch((error: unknown) =>
      failed(response, requestId, error, "request handler failed"),
    );
  }

  function refuseTooLarge(response: ServerResponse, requestId: string, fields: Record<string, unknown>, message: string): void {
    log.warn({ fault: "body_too_large", request_id: requestId, ...fields }, message);
    answerAtOnce(response, "too_large");
  }

  return function serve(request, response) {
    const started = performance.now();
    const requestId = randomUUID();
    const pathname = (request.url ?? "/").split("?")[0]!;
    // Ours, always: a visitor cannot choose the id their request is logged under.
    request.headers[REQUEST_ID_HEADER] = requestId;
    response.setHeader("X-Request-Id", requestId);
    // Held from the start: by the time a timer fires, the request may have let go of its socket.
    const socket = request.socket;
    // Answered before its body was read: Node reads and discards the rest so the client gets the
    // answer (closing at once could reset the connection first), but only for LINGER_MS.
    response.once("finish", () => {
      if (request.complete) return;
      const linger = setTimeout(() => socket.destroy(), LINGER_MS).unref();
      request.once("end", () => clearTimeout(linger));
    });
    let counted = false;
    response.once("close", () => {
      if (counted) inFlight -= 1;
      const fields = {
        request_id: requestId,
        method: request.method,
        route: routeOf(pathname),
        status: response.statusCode,
        ms: Math.round(performance.now() - started),
      };
      // A response that closed before it finished: the client went away (or the server gave up on it).
      if (!response.writableFinished) log.info({ ...fields, aborted: true }, "request");
      else if (quietInTerminal(request.method, pathname, response.statusCode)) log.debug(fields, "request");
      else log.info(fields, "request");
    });

    request.headers[CLIENT_ADDRESS_HEADER] = clientAddressOf(
      request.headers["x-forwarded-for"],
      request.socket.remoteAddress,
      env.TRUST_PROXY_HOPS,
    );
    response.setHeader("Content-Security-Policy", policies.forPath(pathname));
    for (const [name, value] of headers) response.setHeader(name, value);

    if (!isDecodable(pathname)) {
      log.warn({ fault: "malformed_url", request_id: requestId }, "path is not valid percent-encoding: 400");
      return answerAtOnce(response, "not_found", { status: 400, detail: "That address is not valid." });
    }
    if (Number(request.headers["content-length"]) > MAX_REQUEST_BYTES) {
      return refuseTooLarge(
        response,
        requestId,
        { declared_bytes: Number(request.headers["content-length"]) },
        "declared body too large: 413, unread",
      );
    }
    if (isForeignPagePost(request.method, pathname, request.headers, siteOrigin)) {
      log.warn({ fault: "foreign_origin", request_id: requestId }, "form posted to a page from another site: 403");
      return answerAtOnce(response, "foreign_origin");
    }
    const admit = () => {
      // Counted from here: a body still arriving holds a connection, not one of the slots.
      inFlight += 1;
      counted = true;
      if (inFlight > env.WAITLIST_MAX_IN_FLIGHT && pathname !== HEALTH_PATH) {
        log.warn({ fault: "overloaded", request_id: requestId, in_flight: inFlight - 1 }, "too many requests in flight: 503");
        return answerAtOnce(response, "overloaded", { headers: retryLater() });
      }
      handOver(request, response, pathname, requestId);
    };
    if (!hasBody(request)) return admit();
    // Held back until the whole body has arrived (lib/security/request-body.ts): a slow sender holds a connection, never a slot.
    whenBodyArrives(request, MAX_REQUEST_BYTES, {
      arrived: admit,
      tooLarge: () => refuseTooLarge(response, requestId, { undeclared: true }, "body passed the size limit while arriving: 413"),
    });
  };
}
