import { methodsNotAllowed } from "@/lib/http";
import { handleEntryAction } from "@/lib/site/handlers";

// Confirm or remove, from the forms on the visitor's own page; never on a GET (mail scanners open links).
export const POST = handleEntryAction;

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(
  "POST",
  "Use the Confirm and Remove buttons on your waitlist page (they POST a form).",
);
