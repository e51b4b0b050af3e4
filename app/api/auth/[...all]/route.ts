import { route } from "@/lib/http";
import { handleAuthStep, signInSteps } from "@/lib/auth/routes";
import { services } from "@/lib/site/services";

// Sessions and passkey ceremonies: never prerendered, never cached.
export const dynamic = "force-dynamic";

// The console's sign-in (better-auth behind our rules): only the endpoints the console uses, a
// POST from the site's pages, the first step of each way in counted per client; GET and POST.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: signInSteps(services),
  what: "sign-in step",
  GET: handleAuthStep,
  POST: handleAuthStep,
  otherMethods: "The console's sign-in uses GET and POST.",
});
