import { handleFollowUp } from "@/lib/operator/console-routes";

export const POST = handleFollowUp;
