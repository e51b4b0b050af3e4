// The part of the `compression` package (1.8) that lib/site/compression.ts uses, typed for Node's
// own request and response: its published types come with Express's, which nothing else here needs.
declare module "compression" {
  import type { IncomingMessage, ServerResponse } from "node:http";
  import type { BrotliOptions, ZlibOptions } from "node:zlib";

  type Options = ZlibOptions & {
    /** Settings of the Brotli stream (quality and the like), for clients that accept `br`. */
    brotli?: BrotliOptions;
    /** Answers smaller than this many bytes go out as they are (default 1 KiB). */
    threshold?: number | string;
  };

  export default function compression(options?: Options): (request: IncomingMessage, response: ServerResponse, next: () => void) => void;
}
