import { route } from "@/lib/http";
import { redeliverFromForm } from "@/lib/console/routes";
import { CONSOLE_HEADERS, consoleRole } from "@/lib/site/guards";

// Sending a failed delivery again: an operator allowed to, from the entry's page.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: consoleRole({ permission: "redeliver" }),
  answers: "text",
  headers: CONSOLE_HEADERS,
  what: "console action",
  POST: redeliverFromForm,
  otherMethods: "Send a delivery again with the button on its entry's page (a POST).",
});
