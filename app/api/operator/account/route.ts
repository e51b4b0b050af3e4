import { route } from "@/lib/http";
import { changeAccount } from "@/lib/console/routes";
import { CONSOLE_HEADERS, consoleRole } from "@/lib/site/guards";

// The account page's passkeys and sessions: any signed-in operator, their own.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: consoleRole(),
  answers: "text",
  headers: CONSOLE_HEADERS,
  what: "console action",
  POST: changeAccount,
  otherMethods: "Change your passkeys and sessions with the forms on your account page (a POST).",
});
