import { route } from "@/lib/http";
import { signOut } from "@/lib/console/routes";
import { CONSOLE_HEADERS, consoleRole } from "@/lib/site/guards";

// Signing out: any signed-in operator, from a console page.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: consoleRole(),
  answers: "text",
  headers: CONSOLE_HEADERS,
  what: "console action",
  POST: signOut,
  otherMethods: "Sign out with the Sign out button (a POST).",
});
