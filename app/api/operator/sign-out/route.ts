import { handleSignOut } from "@/lib/operator/console-routes";

export const POST = handleSignOut;
