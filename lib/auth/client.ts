/**
 * The browser's side of signing in: better-auth's client with the passkey and
 * email-link plugins, on this site's /api/auth. Only the console's sign-in,
 * enrolment and account pages load it; no public page does.
 */
import { passkeyClient } from "@better-auth/passkey/client";
import { createAuthClient } from "better-auth/client";
import { magicLinkClient } from "better-auth/client/plugins";

export const authClient = createAuthClient({ basePath: "/api/auth", plugins: [passkeyClient(), magicLinkClient()] });

/** What the library's error says, or a sentence of ours when it says nothing useful. */
export function problemOf(error: { message?: string; status?: number } | null | undefined, fallback: string): string {
  if (!error) return fallback;
  if (error.status === 429) return "Too many sign-in attempts from this network. Please wait a few minutes and try again.";
  if (error.status === 503) return "Signing in is not possible just now. Please try again in a few seconds.";
  return error.message && error.message.length < 200 ? error.message : fallback;
}
