import { handleTimeZone } from "@/lib/operator/console-routes";

export const POST = handleTimeZone;
