import { methodsNotAllowed } from "@/lib/http";
import { unsubscribeHandlers } from "@/lib/site/handlers";

type Context = { params: Promise<{ token: string }> };

// POST: one-click unsubscribe (RFC 8058, a mailbox provider's button); GET: the unsubscribe page, nothing changed.
export const POST = async (request: Request, { params }: Context) => unsubscribeHandlers().POST(request, (await params).token);
export const GET = async (request: Request, { params }: Context) => unsubscribeHandlers().GET(request, (await params).token);

export const { HEAD, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(
  "POST",
  "Unsubscribe with a POST to this address (your mail program's unsubscribe button sends one).",
);
