import { route } from "@/lib/http";
import { setTimeZone } from "@/lib/console/routes";
import { CONSOLE_HEADERS, consoleRole } from "@/lib/site/guards";

// The time zone the console shows times in, from the account page: any signed-in operator, their own.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: consoleRole(),
  answers: "text",
  headers: CONSOLE_HEADERS,
  what: "console action",
  POST: setTimeZone,
  otherMethods: "Set the time zone with the form on your account page (a POST).",
});
