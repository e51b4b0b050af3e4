import { route } from "@/lib/http";
import { bearerSecret } from "@/lib/site/guards";
import { services } from "@/lib/site/services";
import { postBounceReport } from "@/lib/waitlist/bounce-reports";

// Reports of undelivered mail from the mail server's pipe (docs/operations.md, "Bounces"): only
// with the bounce secret (MAIL_BOUNCE_SECRET); POST only.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: bearerSecret(services, (site) => site.env.MAIL_BOUNCE_SECRET),
  what: "bounce report",
  POST: postBounceReport,
  otherMethods: "POST a report of undelivered mail here, with the bounce secret.",
});
