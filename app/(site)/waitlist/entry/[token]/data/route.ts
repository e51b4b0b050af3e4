import { methodsNotAllowed } from "@/lib/http";
import { entryDataResponse } from "@/lib/waitlist/visitor-data";

// Read from the database on every request; the signed link is the only key.
export const dynamic = "force-dynamic";

/** "Download my data" from the visitor's own page: everything held about the entry, as JSON. */
export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  return entryDataResponse((await params).token);
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "Use GET to download your data.");
