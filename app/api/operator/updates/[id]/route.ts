import { route } from "@/lib/http";
import { changeUpdateFromForm, UPDATES_PAGE } from "@/lib/console/routes";
import { CONSOLE_HEADERS, consoleRole } from "@/lib/site/guards";

// Pausing, resuming or cancelling an update: an admin, signed in with a passkey within 10 minutes, from the updates page.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: consoleRole({ permission: "send_update", fresh: true, returnTo: () => UPDATES_PAGE }),
  answers: "text",
  headers: CONSOLE_HEADERS,
  what: "console action",
  POST: changeUpdateFromForm,
  otherMethods: "Pause, resume or cancel an update with its buttons on the updates page (a POST).",
});
