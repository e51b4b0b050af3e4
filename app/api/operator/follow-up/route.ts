import { route } from "@/lib/http";
import { changeFollowUpFromForm } from "@/lib/console/routes";
import { CONSOLE_HEADERS, consoleRole } from "@/lib/site/guards";

// The follow-up (change, note, assign) from the queue's and an entry page's forms: any signed-in operator.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: consoleRole(),
  answers: "text",
  headers: CONSOLE_HEADERS,
  what: "console action",
  POST: changeFollowUpFromForm,
  otherMethods: "Change the follow-up with the forms of the console (a POST).",
});
