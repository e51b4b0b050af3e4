/**
 * The compression of every answer, in the front door instead of Next.js (`compress: false` in
 * next.config.mjs): Brotli for a browser that accepts it, as every current one does over HTTPS,
 * gzip for the rest. Next.js can only gzip.
 *
 * Why: a new connection brings the first 10 TCP segments (14,600 bytes) in one round trip, and
 * the home page's document was 15.8 KB with gzip and its headers, so a phone waited a second round
 * trip for its first paint. With Brotli at quality 5 it is about 12.5 KB. Quality 5 takes the time
 * gzip's default level took (about 1 ms for the home page here); quality 4, the package's default,
 * left the home page at 13.7 KB, too near the edge (docs/performance.md, "Brotli").
 */
import "server-only";
import compression from "compression";
import type { IncomingMessage, ServerResponse } from "node:http";
import { constants } from "node:zlib";

const BROTLI_QUALITY = 5;

const compress = compression({
  brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
});

/**
 * Compresses what the response sends from now on, where the client accepts it and the answer is
 * compressible text over 1 KiB; streamed answers are flushed as they are written.
 */
export function compressAnswer(request: IncomingMessage, response: ServerResponse): void {
  compress(request, response, () => {});
}
