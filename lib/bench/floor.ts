/**
 * An empty POST handler in the site's own build: what Next.js costs per
 * request with no work of ours, for `npm run bench:signups` to compare the
 * sign-up route with. It reads the body as the sign-up route does (bounded).
 * A visitor gets a 404 unless the operator started the server with BENCH_FLOOR_ROUTE=1.
 */
import "server-only";
import { errorAnswer, json, readBoundedText, TOO_LARGE } from "../http";
import { MAX_BODY_BYTES } from "../waitlist/handler";

export async function handleFloorRequest(request: Request): Promise<Response> {
  if (process.env.BENCH_FLOOR_ROUTE !== "1") return errorAnswer(404, "not_found", "Not found");
  if ((await readBoundedText(request, MAX_BODY_BYTES)) === TOO_LARGE) return errorAnswer(413, "too_large", "Too large");
  return json(201, { ok: true });
}
