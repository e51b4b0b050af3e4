import { route } from "@/lib/http";
import { downloadEntries, exportReturnTo } from "@/lib/console/routes";
import { CONSOLE_HEADERS, consoleRole } from "@/lib/site/guards";

export const dynamic = "force-dynamic";

// The list as CSV or JSON: an operator allowed to export, signed in with a passkey within 10 minutes.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: consoleRole({ permission: "export", fresh: true, returnTo: exportReturnTo }),
  answers: "text",
  headers: CONSOLE_HEADERS,
  what: "console download",
  GET: downloadEntries,
  otherMethods: "Download the list with GET, from the console's Entries page.",
});
