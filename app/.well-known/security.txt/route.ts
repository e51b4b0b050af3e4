import { route } from "@/lib/http";
import { publicRoute } from "@/lib/site/guards";
import { services } from "@/lib/site/services";
import { securityTxt } from "@/lib/security/security-txt";

// Its Expires is a year from the request: made on each one.
export const dynamic = "force-dynamic";

// Where to report a security problem (RFC 9116). Public; GET only.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: publicRoute(services),
  what: "security.txt",
  GET: (_request, { services: site }) =>
    new Response(securityTxt(site.env, new Date()), {
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=86400" },
    }),
  otherMethods: "Use GET to read how to report a security problem.",
});
