/**
 * What every route needs, in one place: JSON answers that are never cached, one way to answer an
 * error with one vocabulary of codes, a body reader that never holds more than the route allows,
 * 405s that say what the route does accept, and the 503 of a temporary condition.
 */
import "server-only";
import { temporaryKindInRequest } from "./db/request-scope";
import { NotWritten } from "./group-commit";
import { errorFields, log, type FaultKind } from "./log";

/** Every answer of ours is about one request at one moment: nothing is cached. */
const NO_STORE = { "Cache-Control": "no-store" };

/** How long a client should wait before sending the same request again after a 503. */
const RETRY_AFTER_SECONDS = 5;

export function json(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

/**
 * The codes an error answer carries, for programs, each with its status and one sentence for people
 * (docs/api.md lists them). A refusal that must say more (which choices there are, which filters
 * were wrong) adds a detail after the sentence; the sentence itself is the same wherever the code is
 * answered.
 */
const ERRORS = {
  // The request itself
  method_not_allowed: [405, "This address does not take that method."],
  not_found: [404, "There is nothing here."],
  unsupported_media_type: [415, "The request's Content-Type is not the one this address reads."],
  too_large: [413, "The request is larger than this address takes."],
  unreadable_body: [400, "The request's body could not be read."],
  invalid_json: [400, "The request's body must be valid JSON."],
  not_an_object: [400, "The request's body must be a JSON object."],
  invalid_fields: [400, "Some fields need attention."],
  invalid_event: [400, "That is not an event this site counts."],
  invalid_filters: [400, "These filters are not valid."],
  invalid_choice: [400, "That is not one of the choices here."],
  // Where it came from, and how often
  foreign_origin: [403, "This request did not come from one of this site's pages, so nothing was changed."],
  started_elsewhere: [403, "This link came from another site, so it was not followed. Open it from the console."],
  secret_required: [401, "This address needs its secret: Authorization: Bearer <secret>."],
  rate_limited: [429, "Too many attempts from your network. Please wait a few minutes and try again."],
  // The sign-up
  challenge_invalid: [400, "The security question is missing or was not issued by this site. Please answer a new one."],
  challenge_expired: [400, "The security question has expired. Please answer a new one."],
  challenge_used: [400, "This security question has already been used. Please answer a new one."],
  challenge_wrong_answer: [400, "The answer to the security question is not correct."],
  email_refused: [400, "This email address can't be used for the waitlist; `fields.email` says why."],
  already_registered: [409, "This email is already registered on the waitlist."],
  // A visitor's link, an operator's session and role
  link_invalid: [404, "This link is not valid."],
  entry_gone: [404, "This entry is no longer on the waitlist."],
  signed_out: [401, "Sign in to the console first."],
  role_not_allowed: [403, "Your role does not include this, so nothing was changed."],
  fresh_sign_in_required: [403, "This needs a passkey sign-in within the last 10 minutes. Nothing was changed yet."],
  passkey_name: [400, "A passkey's name is at most 60 characters."],
  enrolment_link_unusable: [
    400,
    "This enrolment link has been used or has expired. Ask for a new one (npm run waitlist -- operators enrol EMAIL).",
  ],
  enrolment_link_other_operator: [
    403,
    "This enrolment link is for another operator. Sign out of the console first, then open the link again.",
  ],
  // Our side
  temporarily_unavailable: [503, "We could not do that just now, and nothing was changed. Please try again in a moment."],
  overloaded: [503, "We are very busy right now, and nothing was changed. Please try again in a few seconds."],
  unexpected: [500, "Something went wrong on our side. Please try again later."],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** A code's status. */
export function errorStatus(code: ErrorCode): number {
  return ERRORS[code][0];
}

/** A code's one sentence for people. */
export function errorMessage(code: ErrorCode): string {
  return ERRORS[code][1];
}

/** The header that carries a text answer's code (a JSON answer carries it in its body). */
export const ERROR_CODE_HEADER = "X-Error-Code";

type ErrorAnswerOptions = {
  /** "text" for a form a page posted (the browser shows the sentence); JSON otherwise. */
  as?: "json" | "text";
  headers?: Record<string, string>;
  /** More for programs, beside `error` and `code` (JSON only): the invalid fields, a request id. */
  extra?: Record<string, unknown>;
  /** Said after the code's sentence: what to do here (which choices there are, which method). */
  detail?: string;
  /** Another status than the code's own (the front door's 400 for a path that does not decode). */
  status?: number;
};

/** The headers of an error answer as plain text (errorAnswer's, and the front door's before Next). */
export function textErrorHeaders(code: ErrorCode, headers: Record<string, string> = {}): Record<string, string> {
  return { "Content-Type": "text/plain; charset=utf-8", ...NO_STORE, [ERROR_CODE_HEADER]: code, ...headers };
}

/** The sentence of an error answer: the code's own, and the detail when there is one. */
export function errorSentence(code: ErrorCode, detail?: string): string {
  return detail ? `${errorMessage(code)} ${detail}` : errorMessage(code);
}

/**
 * Every error answer of ours: `{"error": <for people>, "code": <for programs>}` as JSON, or the
 * sentence as plain text with the code in X-Error-Code; never cached.
 */
export function errorAnswer(code: ErrorCode, options: ErrorAnswerOptions = {}): Response {
  const status = options.status ?? ERRORS[code][0];
  const message = errorSentence(code, options.detail);
  if (options.as === "text") return new Response(message, { status, headers: textErrorHeaders(code, options.headers) });
  return json(status, { error: message, code, ...options.extra }, options.headers);
}

/**
 * A refusal, thrown from anywhere under a route (its guard, its handler, a feature's function) and
 * answered by route() as errorAnswer: the code decides the status and the sentence.
 */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly options: Omit<ErrorAnswerOptions, "as" | "status"> = {},
  ) {
    // A refusal is an answer, not a fault: its stack is never logged, and capturing one through a
    // request's async frames costs more than the rest of the refusal (a flood of duplicates
    // throws one per request).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(errorSentence(code, options.detail));
    Error.stackTraceLimit = stackTraceLimit;
    this.name = "ApiError";
    this.status = ERRORS[code][0];
  }
}

/** After a form's change, the page that shows it (POST, redirect, GET): reloading it changes nothing. Never cached. */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location, ...NO_STORE } });
}

/** The header of a 503: the condition is temporary, try again after this many seconds. */
export function retryLater(seconds = RETRY_AFTER_SECONDS): Record<string, string> {
  return { "Retry-After": String(seconds) };
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Method = (typeof METHODS)[number];

/** The 405 of a method a route does not take: `Allow` names those it does, the detail what to do instead. */
export function methodNotAllowed(allow: readonly string[], detail: string, as: "json" | "text" = "json"): Response {
  return errorAnswer("method_not_allowed", { as, detail, headers: { Allow: allow.join(", ") } });
}

/**
 * What let a request in: `context` is what the handler gets (the signed-in operator, the visitor's
 * entry id); a Response instead ends the request there (a form post sent to the sign-in page).
 * Refusals are thrown as ApiError. `name` is what the route file says it is.
 */
export type Guard<Context, Params = Record<string, string>> = {
  name: string;
  check: (request: Request, params: Params) => Promise<Context | Response> | Context | Response;
};

type Handler<Context, Params> = (request: Request, context: Context, params: Params) => Promise<Response> | Response;

type RouteSpec<Context, Params> = {
  guard: Guard<Context, Params>;
  /** "text" for an address a page's form posts to (the browser shows the sentence); JSON otherwise. */
  answers?: "json" | "text";
  /** Headers on every answer, refusals included (the console's: never cached, never indexed). */
  headers?: Record<string, string>;
  /** What a 405 to any other method says to do instead. */
  otherMethods: string;
  /** The log line's words for a failure: "sign-up", "console action". */
  what?: string;
} & Partial<Record<Exclude<Method, "HEAD" | "OPTIONS">, Handler<Context, Params>>>;

/** Next's handler of one method: the request, and the route's dynamic segments. */
type RouteHandler = (request?: Request, segments?: { params: Promise<unknown> }) => Promise<Response>;

/**
 * Every route of app/api in one shape (dub's withWorkspace): the route file names its guard and
 * the methods it answers; every other method gets 405 with Allow and a code. Under the guard, a
 * thrown ApiError is its answer, a temporary database fault (or too many writes waiting) a 503
 * with Retry-After and nothing changed, and anything else a logged 500. A GET answers HEAD too.
 */
export function route<Context, Params = Record<string, string>>(spec: RouteSpec<Context, Params>): Record<Method, RouteHandler> {
  const handled = METHODS.filter((method) => method !== "HEAD" && method !== "OPTIONS" && spec[method]);
  const allow = handled.includes("GET") ? ["GET", "HEAD", ...handled.filter((method) => method !== "GET")] : handled;
  const as = spec.answers ?? "json";
  const withHeaders = (response: Response) => {
    for (const [name, value] of Object.entries(spec.headers ?? {})) if (!response.headers.has(name)) response.headers.set(name, value);
    return response;
  };

  const answer =
    (handler: Handler<Context, Params>): RouteHandler =>
    async (request = new Request("http://localhost/"), segments) => {
      try {
        const params = ((await segments?.params) ?? {}) as Params;
        const context = await spec.guard.check(request, params);
        if (context instanceof Response) return withHeaders(context);
        return withHeaders(await handler(request, context, params));
      } catch (error) {
        return withHeaders(failureAnswer(error, request, as, spec.what ?? "request"));
      }
    };

  const refuse: RouteHandler = async () => withHeaders(methodNotAllowed(allow, spec.otherMethods, as));
  return Object.fromEntries(
    METHODS.map((method) => {
      const handler = method === "HEAD" ? spec.GET : method === "OPTIONS" ? undefined : spec[method];
      return [method, handler ? answer(handler) : refuse];
    }),
  ) as Record<Method, RouteHandler>;
}

/**
 * The kind of a temporary fault (nothing was changed, the same request may be sent again): the
 * database could not answer just then, or too many writes were waiting; null for anything else.
 */
export function temporaryFault(error: unknown): FaultKind | null {
  return error instanceof NotWritten ? error.kind : temporaryKindInRequest(error);
}

/**
 * Any error thrown under a route as the refusal it is answered with: itself if it is one, a 503's
 * for a temporary fault, else "unexpected". Logged here (with `what` and the request's id), except
 * a refusal, which is no fault. The join page shows the same refusal as the route answers.
 */
export function asRefusal(error: unknown, what: string, requestId?: string): ApiError {
  if (error instanceof ApiError) return error;
  const temporary = temporaryFault(error);
  if (temporary) {
    log.warn({ fault: temporary, request_id: requestId, ...errorFields(error) }, `${what} answered 503: nothing changed`);
    const code = temporary === "overloaded" || temporary === "request_deadline" ? "overloaded" : "temporarily_unavailable";
    return new ApiError(code, { headers: retryLater() });
  }
  log.error({ fault: "unexpected", request_id: requestId, ...errorFields(error) }, `${what} failed`);
  return new ApiError("unexpected", requestId ? { extra: { request_id: requestId } } : {});
}

/** A thrown error as its answer (asRefusal). */
function failureAnswer(error: unknown, request: Request, as: "json" | "text", what: string): Response {
  const refusal = asRefusal(error, `${what} (${new URL(request.url, "http://localhost").pathname.slice(0, 100)})`, requestIdOf(request));
  return errorAnswer(refusal.code, { ...refusal.options, as });
}

/** The body as a JSON object, read as readBoundedText does; an ApiError says what is wrong with it. */
export async function readJsonObject(request: Request, limit: number): Promise<Record<string, unknown>> {
  if (!hasContentType(request, "application/json"))
    throw new ApiError("unsupported_media_type", { detail: "Send JSON: Content-Type: application/json." });
  const text = await readBoundedText(request, limit);
  if (text === TOO_LARGE) throw new ApiError("too_large", { detail: `At most ${limit / 1024} KiB.` });
  if (text === UNREADABLE) throw new ApiError("unreadable_body");
  if (text === NOT_UTF8) throw new ApiError("invalid_json");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json");
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new ApiError("not_an_object");
  return data as Record<string, unknown>;
}

/** A page's form post (application/x-www-form-urlencoded), at most `limit` bytes; an ApiError says what is wrong. */
export async function readForm(request: Request, limit: number, from: string): Promise<URLSearchParams> {
  if (!hasContentType(request, "application/x-www-form-urlencoded"))
    throw new ApiError("unsupported_media_type", { detail: `Send the form from ${from}.` });
  const text = await readBoundedText(request, limit);
  if (text === TOO_LARGE) throw new ApiError("too_large");
  if (typeof text !== "string") throw new ApiError("unreadable_body", { detail: `Please send it again from ${from}.` });
  return new URLSearchParams(text);
}

export function hasContentType(request: Request, type: string): boolean {
  return request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() === type;
}

export const TOO_LARGE = Symbol("too large");
export const UNREADABLE = Symbol("unreadable");
export const NOT_UTF8 = Symbol("not UTF-8");

// fatal: invalid UTF-8 is a bad request, not text with replacement characters.
const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * The body's bytes, reading at most `limit`: a declared Content-Length over the limit is refused
 * before a byte is read, and a body without one (or lying about it) is cut off as soon as it
 * passes the limit, so an oversized upload is never held in memory. TOO_LARGE or UNREADABLE (the
 * upload broke off) instead of throwing.
 */
export async function readBoundedBytes(request: Request, limit: number): Promise<Uint8Array | typeof TOO_LARGE | typeof UNREADABLE> {
  const declared = request.headers.get("content-length");
  if (declared !== null && !(Number(declared) <= limit)) return TOO_LARGE;
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  try {
    // A declared size within the limit is held to by the HTTP parser: one read is enough (and quicker).
    if (declared !== null && Number.isInteger(Number(declared))) chunks.push(new Uint8Array(await request.arrayBuffer()));
    else if (!(await readChunks(request.body, limit, chunks))) return TOO_LARGE;
    if (chunks.length === 1 && chunks[0]!.byteLength > limit) return TOO_LARGE; // a Request made in-process can say anything
  } catch {
    return UNREADABLE;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** The body as UTF-8 text, read as readBoundedBytes does; NOT_UTF8 when it is not valid UTF-8. */
export async function readBoundedText(
  request: Request,
  limit: number,
): Promise<string | typeof TOO_LARGE | typeof UNREADABLE | typeof NOT_UTF8> {
  const bytes = await readBoundedBytes(request, limit);
  if (!(bytes instanceof Uint8Array)) return bytes;
  try {
    return decoder.decode(bytes);
  } catch {
    return NOT_UTF8;
  }
}

/** Reads into `chunks` until the end (true), or stops as soon as the size passes `limit` (false). */
async function readChunks(body: ReadableStream<Uint8Array>, limit: number, chunks: Uint8Array[]): Promise<boolean> {
  const reader = body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return true;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => {});
      return false;
    }
    chunks.push(value);
  }
}

/** The request id server.ts gives every request (also in the X-Request-Id answer header and its log line). */
export const REQUEST_ID_HEADER = "x-request-id";

export function requestIdOf(request: Request): string {
  return request.headers.get(REQUEST_ID_HEADER) ?? crypto.randomUUID();
}
