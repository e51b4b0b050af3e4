import { handleExport } from "@/lib/operator/console-routes";

export const dynamic = "force-dynamic";
export const GET = handleExport;
