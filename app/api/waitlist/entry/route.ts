import { route } from "@/lib/http";
import { visitorPage } from "@/lib/site/guards";
import { services } from "@/lib/site/services";
import { postEntryAction } from "@/lib/waitlist/visitor-entry";

// Confirm or Remove, from the forms on a visitor's own page only (the token in the form is the key);
// never on a GET: mail scanners open links.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: visitorPage(services),
  answers: "text",
  what: "visitor's action",
  POST: postEntryAction,
  otherMethods: "Use the Confirm and Remove buttons on your waitlist page (they POST a form).",
});
