import { methodsNotAllowed } from "@/lib/http";
import { handleCampaignsCsv } from "@/lib/operator/console-routes";

export const dynamic = "force-dynamic";
export const GET = handleCampaignsCsv;
export const { HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "Download the campaigns' figures with GET.");
