import { route } from "@/lib/http";
import { publicRoute } from "@/lib/site/guards";
import { services } from "@/lib/site/services";
import { getUnsubscribe, postUnsubscribe } from "@/lib/waitlist/unsubscribe";

// Public: the signed token in the address is the key. POST is one-click unsubscribe (RFC 8058, a
// mailbox provider's button); GET changes nothing and leads to the unsubscribe page.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: publicRoute(services),
  answers: "text",
  what: "unsubscribe",
  POST: postUnsubscribe,
  GET: getUnsubscribe,
  otherMethods: "Unsubscribe with a POST to this address (your mail program's unsubscribe button sends one).",
});
