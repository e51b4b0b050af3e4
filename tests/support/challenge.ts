import { solve } from "@/lib/waitlist/challenge";
import { issueChallenge } from "@/lib/waitlist/challenge-token";

/** The secret vitest.config.ts gives the route handlers through WAITLIST_SECRET. */
export function testSecret(): string {
  const secret = process.env.WAITLIST_SECRET;
  if (!secret) throw new Error("WAITLIST_SECRET is not set for the tests (vitest.config.ts)");
  return secret;
}

/** A question issued by the server (as GET /api/waitlist/challenge would) and its right answer. */
export function solvedChallenge(options: { secret?: string; now?: number; previous?: string } = {}) {
  const issued = issueChallenge(options.secret ?? testSecret(), options.now ?? Date.now(), options.previous);
  return { challenge_token: issued.token, challenge_answer: String(solve(issued.challenge)) };
}
