import { handleAuthRequest } from "@/lib/auth/routes";

// Sessions and passkey ceremonies: never prerendered, never cached.
export const dynamic = "force-dynamic";

export const GET = handleAuthRequest;
export const POST = handleAuthRequest;
