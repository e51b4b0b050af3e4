import { methodNotAllowed } from "@/lib/waitlist/handler";
import { handleEntryAction } from "@/lib/waitlist/visitor-entry";

// Confirm or remove, from the forms on the visitor's own page; never on a GET (mail scanners open links).
export const POST = handleEntryAction;

const postOnly = methodNotAllowed("POST");
export { postOnly as GET, postOnly as HEAD, postOnly as PUT, postOnly as PATCH, postOnly as DELETE, postOnly as OPTIONS };
