/**
 * The server's gate for request bodies (server.ts): a request with a body reaches
 * Next only once the whole body has arrived, and a body larger than the limit
 * never reaches it at all.
 *
 * Why in front of Next: a Server Action (every page's form POST) reads its body
 * with Next's own limit of 1 MB and answers an oversized chunked body with a 500;
 * and a body still trickling in would hold one of the WAITLIST_MAX_IN_FLIGHT
 * slots, so a few hundred slow uploads could turn real visitors away with 503s.
 * Held here, a slow upload is only a connection (bounded by the server's
 * requestTimeout), and what Next gets is already in memory, at most `limit` bytes.
 */
import type { IncomingMessage } from "node:http";

/** Whether the request says it has a body: a Content-Length above 0, or a Transfer-Encoding. */
export function hasBody(request: IncomingMessage): boolean {
  return request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"] ?? 0) > 0;
}

/**
 * Holds the request's body back from its readers until it has all arrived, then
 * calls `arrived()` (the body is then in the request's buffer, read as usual);
 * or calls `tooLarge()` as soon as it passes `limit` bytes, and drops the rest.
 *
 * It works where Node's HTTP parser hands each piece of the body to the request
 * (its `push`), so nothing is read early and nothing is read twice.
 */
export function whenBodyArrives(request: IncomingMessage, limit: number, on: { arrived(): void; tooLarge(): void }): void {
  const push = request.push.bind(request);
  const held: Buffer[] = [];
  let bytes = 0;
  let refused = false;
  // The parser pushes Buffers, and null at the end of the message.
  request.push = (chunk: Buffer | null): boolean => {
    if (refused) return chunk === null ? push(null) : true; // the end still ends the stream; the rest is dropped
    if (chunk !== null) {
      bytes += chunk.length;
      if (bytes > limit) {
        refused = true;
        held.length = 0;
        on.tooLarge();
        return true;
      }
      held.push(chunk);
      return true;
    }
    // The whole body is here: hand it over as it came, and step out of the way.
    request.push = push;
    for (const piece of held) push(piece);
    const result = push(null);
    on.arrived();
    return result;
  };
}
