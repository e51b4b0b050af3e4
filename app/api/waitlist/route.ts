import { after } from "next/server";
import { handleSignup, methodNotAllowed } from "@/lib/waitlist/handler";

// Deliveries owed for a new sign-up (the webhook) start once the answer has gone out.
export const POST = (request: Request) => handleSignup(request, after);

// Next would answer other methods with an empty 405; these say what to use instead.
const postOnly = methodNotAllowed("POST");
export { postOnly as GET, postOnly as HEAD, postOnly as PUT, postOnly as PATCH, postOnly as DELETE, postOnly as OPTIONS };
