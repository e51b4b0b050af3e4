import { handleSignup, methodNotAllowed } from "@/lib/waitlist/handler";

export const POST = handleSignup;

// Next would answer other methods with an empty 405; these say what to use instead.
const postOnly = methodNotAllowed("POST");
export { postOnly as GET, postOnly as HEAD, postOnly as PUT, postOnly as PATCH, postOnly as DELETE, postOnly as OPTIONS };
