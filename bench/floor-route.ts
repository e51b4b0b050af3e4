/**
 * An empty POST handler in the site's own build: what Next.js and route() cost per request with no
 * work of ours, for `npm run bench:signups` to compare the sign-up route with. It reads the body as
 * the sign-up route does (bounded). Served only when the server was started with BENCH_FLOOR_ROUTE=1.
 */
import "server-only";
import { ApiError, json, readBoundedText, TOO_LARGE, type Guard } from "@/lib/http";
import { SIGN_UP_MAX_BYTES } from "@/lib/waitlist/sign-up";

/** Anyone, but only on a server the benchmark started (BENCH_FLOOR_ROUTE=1); a 404 for a visitor. */
export const benchServerOnly: Guard<null> = {
  name: "benchmark server only",
  check: () => {
    if (process.env.BENCH_FLOOR_ROUTE !== "1") throw new ApiError("not_found");
    return null;
  },
};

export async function postFloor(request: Request): Promise<Response> {
  if ((await readBoundedText(request, SIGN_UP_MAX_BYTES)) === TOO_LARGE) throw new ApiError("too_large");
  return json(201, { ok: true });
}
