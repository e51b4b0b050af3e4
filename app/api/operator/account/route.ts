import { handleAccount } from "@/lib/operator/console-routes";

export const POST = handleAccount;
