import { route } from "@/lib/http";
import { formPost } from "@/lib/site/guards";
import { services } from "@/lib/site/services";
import { postSignUp } from "@/lib/waitlist/sign-up";

// The dialog's sign-up: a form post from the site's own pages, counted against the client's rate
// limit; POST only. The four steps are in lib/waitlist/sign-up.ts.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: formPost(services),
  what: "sign-up",
  POST: postSignUp,
  otherMethods: "Use POST to join the waitlist.",
});
