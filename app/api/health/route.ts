import { handleHealth } from "@/lib/health";
import { methodNotAllowed } from "@/lib/waitlist/handler";

// Asked on every check; never prerendered or cached.
export const dynamic = "force-dynamic";

export const GET = handleHealth;

const getOnly = methodNotAllowed("GET");
export { getOnly as POST, getOnly as PUT, getOnly as PATCH, getOnly as DELETE, getOnly as OPTIONS };
