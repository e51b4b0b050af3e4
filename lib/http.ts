/**
 * What every route needs, in one place: JSON and plain-text answers that are
 * never cached, a body reader that never holds more than the route allows,
 * 405s that say what the route does accept, and the 503 of a temporary
 * condition. Routes stay thin; the pipelines behind them stay free of plumbing.
 */

/** Every answer of ours is about one request at one moment: nothing is cached. */
const NO_STORE = { "Cache-Control": "no-store" };

/** How long a client should wait before sending the same request again after a 503. */
import "server-only";
export const RETRY_AFTER_SECONDS = 5;

export function json(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

export function plainText(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...NO_STORE, ...headers } });
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
  const refuse = () => json(405, { error: explanation, code: "method_not_allowed" }, { Allow: allow });
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
 * The body as text, reading at most `limit` bytes: a declared Content-Length
 * over the limit is refused before a byte is read, and a body without one (or
 * lying about it) is cut off as soon as it passes the limit, so an oversized
 * upload is never held in memory. TOO_LARGE, UNREADABLE (the upload broke off)
 * or NOT_UTF8 instead of throwing.
 */
export async function readBoundedText(
  request: Request,
  limit: number,
): Promise<string | typeof TOO_LARGE | typeof UNREADABLE | typeof NOT_UTF8> {
  const declared = request.headers.get("content-length");
  if (declared !== null && !(Number(declared) <= limit)) return TOO_LARGE;
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  try {
    // A declared size within the limit is held to by the HTTP parser: one read is enough (and quicker).
    if (declared !== null && Number.isInteger(Number(declared))) chunks.push(new Uint8Array(await request.arrayBuffer()));
    else if (!(await readChunks(request.body, limit, chunks))) return TOO_LARGE;
    if (chunks.length === 1 && chunks[0]!.byteLength > limit) return TOO_LARGE; // a Request made in-process can say anything
  } catch {
    return UNREADABLE;
  }
  try {
    return decoder.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
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
