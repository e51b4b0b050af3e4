/**
 * The compression of every answer, in the front door instead of Next.js (`compress: false` in
 * next.config.mjs): Brotli for a browser that accepts it, as every current one does over HTTPS,
 * gzip for the rest. Next.js can only gzip.
 *
 * Why: a new connection brings the first 10 TCP segments (14,600 bytes) in one round trip, and the
 * home page's document with gzip and its headers does not fit in them; with Brotli at quality 5 it
 * does, with room (docs/performance.md, "Pages"). Quality 5 costs what gzip's default level does.
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
