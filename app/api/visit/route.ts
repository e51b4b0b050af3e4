import { methodsNotAllowed } from "@/lib/http";
import { visitHandler } from "@/lib/analytics/site";

// POST: a page's beacon; GET: the <noscript> image of a page seen without JavaScript (lib/analytics/handler.ts).
export const POST = (request: Request) => visitHandler().post(request);
export const GET = (request: Request) => visitHandler().pixel(request);

export const { HEAD, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST", "Pages send their visits here with POST.");
