import { after } from "next/server";
import { methodsNotAllowed } from "@/lib/http";
import { handleSignup } from "@/lib/site/handlers";

// Deliveries owed for a new sign-up (the webhook, the email) start once the answer has gone out.
export const POST = (request: Request) => handleSignup(request, after);

// Next would answer other methods with an empty 405; these say what to use instead.
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST", "Use POST to join the waitlist.");
