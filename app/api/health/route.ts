import { handleHealth } from "@/lib/health";
import { methodsNotAllowed } from "@/lib/http";

// Asked on every check; never prerendered or cached.
export const dynamic = "force-dynamic";

export const GET = handleHealth;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "Use GET to check this instance's health.");
