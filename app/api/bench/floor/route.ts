import { handleFloorRequest } from "@/lib/bench/floor";

// The sign-up benchmark's floor (docs/performance.md): reads the body and
// answers, nothing else. Off unless the server was started with BENCH_FLOOR_ROUTE=1.
export const POST = handleFloorRequest;
