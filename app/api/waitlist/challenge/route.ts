import { handleChallenge, methodNotAllowed } from "@/lib/waitlist/handler";

// Every request gets a new question; never prerender or cache this route.
export const dynamic = "force-dynamic";

export const GET = handleChallenge;

const getOnly = methodNotAllowed("GET");
export { getOnly as POST, getOnly as PUT, getOnly as PATCH, getOnly as DELETE, getOnly as OPTIONS };
