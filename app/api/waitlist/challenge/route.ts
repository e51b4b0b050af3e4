import { methodsNotAllowed } from "@/lib/http";
import { handleChallenge } from "@/lib/site/handlers";

// Every request gets a new question; never prerender or cache this route.
export const dynamic = "force-dynamic";

export const GET = handleChallenge;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "Use GET to get a new security question.");
