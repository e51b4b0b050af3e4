import { route } from "@/lib/http";
import { downloadCampaigns } from "@/lib/console/routes";
import { CONSOLE_HEADERS, consoleRole } from "@/lib/site/guards";

export const dynamic = "force-dynamic";

// The campaigns' figures as CSV (counts only): any signed-in operator.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: consoleRole(),
  answers: "text",
  headers: CONSOLE_HEADERS,
  what: "console download",
  GET: downloadCampaigns,
  otherMethods: "Download the campaigns' figures with GET.",
});
