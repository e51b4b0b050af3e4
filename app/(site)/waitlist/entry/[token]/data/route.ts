import { route } from "@/lib/http";
import { publicRoute } from "@/lib/site/guards";
import { services } from "@/lib/site/services";
import { entryDataResponse, VISITOR_DATA_HEADERS } from "@/lib/waitlist/visitor-data";

// Read from the database on every request.
export const dynamic = "force-dynamic";

// "Download my data" from the visitor's own page. Public: the signed token in the address is the key.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: publicRoute(services),
  answers: "text",
  headers: VISITOR_DATA_HEADERS,
  what: "visitor's data",
  GET: (_request, _context, { token = "" }) => entryDataResponse(token),
  otherMethods: "Use GET to download your data.",
});
