import { route } from "@/lib/http";
import { removalReturnTo, removeEntryFromForm } from "@/lib/console/routes";
import { CONSOLE_HEADERS, consoleRole } from "@/lib/site/guards";

// Removing an entry: an operator allowed to, signed in with a passkey within 10 minutes, from the entry's page.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: consoleRole({ permission: "remove_entry", fresh: true, returnTo: removalReturnTo }),
  answers: "text",
  headers: CONSOLE_HEADERS,
  what: "console action",
  POST: removeEntryFromForm,
  otherMethods: "Remove an entry with the Remove button on its page (a POST).",
});
