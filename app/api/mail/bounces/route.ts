import { methodsNotAllowed } from "@/lib/http";
import { handleBounce } from "@/lib/site/handlers";

// A delivery status notification, from the mail server's pipe alias (docs/operations.md, "Bounces").
export const POST = handleBounce;

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(
  "POST",
  "POST a delivery status notification here, with the bounce secret.",
);
