import { benchServerOnly, postFloor } from "@/bench/floor-route";
import { route } from "@/lib/http";

// The sign-up benchmark's floor (docs/performance.md): reads the body and answers, nothing else.
// Only on a server started with BENCH_FLOOR_ROUTE=1; POST only.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: benchServerOnly,
  POST: postFloor,
  otherMethods: "The benchmark posts here.",
});
