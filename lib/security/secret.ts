import { randomBytes } from "node:crypto";

// Kept on globalThis: each route of the built site is its own bundle with its
// own copy of this module, and the route that issues questions and the one that
// checks answers must share one secret.
const cache = globalThis as unknown as { waitlistGeneratedSecret?: string };

/**
 * The key that signs security-question tokens. Without WAITLIST_SECRET each
 * process makes its own random key: fine for one process, but tokens die with
 * a restart and are not valid across several processes, so production warns.
 */
export function challengeSecret(configured: string | undefined, production = process.env.NODE_ENV === "production"): string {
  if (configured) return configured;
  if (!cache.waitlistGeneratedSecret) {
    cache.waitlistGeneratedSecret = randomBytes(32).toString("base64url");
    if (production) {
      console.warn(
        "[waitlist] WAITLIST_SECRET is not set; using a random key for this process. " +
          "Questions issued before a restart will be refused. Set WAITLIST_SECRET (see .env.example).",
      );
    }
  }
  return cache.waitlistGeneratedSecret;
}
