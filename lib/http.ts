/**
 * What every route needs, in one place: JSON answers that are never cached, one way to answer an
 * error with one vocabulary of codes, a body reader that never holds more than the route allows,
 * 405s that say what the route does accept, and the 503 of a temporary condition.
 */
import "server-only";

/** Every answer of ours is about one request at one moment: nothing is cached. */
const NO_STORE = { "Cache-Control": "no-store" };

/** How long a client should wait before sending the same request again after a 503. */
const RETRY_AFTER_SECONDS = 5;

export function json(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

/**
 * The codes an error answer carries, for programs; docs/api.md lists them with their statuses.
 * The sentence beside each is for people and says what to do.
 */
export const ERROR_CODES = [
  // The request itself
  "method_not_allowed",
  "not_found",
  "unsupported_media_type",
  "too_large",
  "unreadable_body",
  "invalid_json",
  "not_an_object",
  "invalid_fields",
  "invalid_event",
  "invalid_filters",
  "invalid_choice",
  // Where it came from, and how often
  "foreign_origin",
  "started_elsewhere",
  "secret_required",
  "rate_limited",
  // The sign-up
  "challenge_invalid",
  "challenge_expired",
  "challenge_used",
  "challenge_wrong_answer",
  "email_refused",
  "already_registered",
  // A visitor's link, an operator's session and role
  "link_invalid",
  "entry_gone",
  "signed_out",
  "role_not_allowed",
  "fresh_sign_in_required",
  "passkey_name",
  "enrolment_link_unusable",
  "enrolment_link_other_operator",
  // Our side
  "temporarily_unavailable",
  "overloaded",
  "unexpected",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The header that carries a text answer's code (a JSON answer carries it in its body). */
export const ERROR_CODE_HEADER = "X-Error-Code";

type ErrorAnswerOptions = {
  /** "text" for a form a page posted (the browser shows the sentence); JSON otherwise. */
  as?: "json" | "text";
  headers?: Record<string, string>;
  /** More for programs, beside `error` and `code` (JSON only): the invalid fields, a request id. */
  extra?: Record<string, unknown>;
};

/** The headers of an error answer as plain text (errorAnswer's, and the front door's before Next). */
export function textErrorHeaders(code: ErrorCode, headers: Record<string, string> = {}): Record<string, string> {
  return { "Content-Type": "text/plain; charset=utf-8", ...NO_STORE, [ERROR_CODE_HEADER]: code, ...headers };
}

/**
 * Every error answer of ours: `{"error": <for people>, "code": <for programs>}` as JSON, or the
 * sentence as plain text with the code in X-Error-Code; never cached.
 */
export function errorAnswer(status: number, code: ErrorCode, message: string, options: ErrorAnswerOptions = {}): Response {
  if (options.as === "text") return new Response(message, { status, headers: textErrorHeaders(code, options.headers) });
  return json(status, { error: message, code, ...options.extra }, options.headers);
}

/** The header of a 503: the condition is temporary, try again after this many seconds. */
export function retryLater(seconds = RETRY_AFTER_SECONDS): Record<string, string> {
  return { "Retry-After": String(seconds) };
}

/**
 * Handlers for every method a route does not take: 405 with `Allow` and a
 * sentence saying what to do instead, e.g. `export const { PUT, DELETE } = methodsNotAllowed(...)`.
 */
export function methodsNotAllowed(allow: "GET" | "POST", explanation: string) {
  const refuse = () => errorAnswer(405, "method_not_allowed", explanation, { headers: { Allow: allow } });
  return { GET: refuse, HEAD: refuse, POST: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse, OPTIONS: refuse };
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
