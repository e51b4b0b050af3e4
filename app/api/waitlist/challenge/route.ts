import { json, route } from "@/lib/http";
import { publicRoute } from "@/lib/site/guards";
import { services } from "@/lib/site/services";
import { newQuestion } from "@/lib/waitlist/challenge-token";

// Every request gets a new question; never prerender or cache this route.
export const dynamic = "force-dynamic";

// A new security question (?previous=TOKEN keeps the visit's start time). Public; GET only.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  guard: publicRoute(services),
  GET: (request, { services: site }) => json(200, newQuestion(request, site)),
  otherMethods: "Use GET to get a new security question.",
});
