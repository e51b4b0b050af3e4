import { handleHealth } from "@/lib/health";
import { route } from "@/lib/http";
import { publicRoute } from "@/lib/site/guards";

// Asked on every check; never prerendered or cached.
export const dynamic = "force-dynamic";

// Whether this instance can take sign-ups, for load balancers and uptime checks. Public; GET only.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: publicRoute(() => undefined),
  what: "health check",
  GET: handleHealth,
  otherMethods: "Use GET to check this instance's health.",
});
