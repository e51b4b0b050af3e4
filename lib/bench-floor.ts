/**
 * An empty POST handler in the site's own build: what Next.js costs per
 * request with no work of ours, for `npm run bench:signups` to compare the
 * sign-up route with. A visitor gets a 404 unless the operator started the
 * server with BENCH_FLOOR_ROUTE=1.
 */
export async function handleFloorRequest(request: Request): Promise<Response> {
  if (process.env.BENCH_FLOOR_ROUTE !== "1") return Response.json({ error: "Not found" }, { status: 404 });
  await request.text();
  return Response.json({ ok: true }, { status: 201, headers: { "Cache-Control": "no-store" } });
}
