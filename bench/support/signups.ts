import { solve } from "../../lib/waitlist/challenge";
import { issueChallenge } from "../../lib/waitlist/challenge-token";
import { BUSINESS_TYPE_VALUES, COMPANY_SIZE_VALUES } from "../../lib/content/signup-options";
import { VALID_SIGNUP } from "../../tests/fixtures/signup";
import { BENCH_SECRET } from "./site-server";

let sequence = 0;

/** A valid, unique sign-up body answering a question signed with the run's secret. */
export function uniqueSignupBody(tag: string): { email: string; body: string } {
  return signupBodyFor(`${tag}.${process.pid}.${sequence + 1}@load.example`);
}

/** A valid sign-up body for `email`, with its own freshly signed question (so only the email repeats). */
export function signupBodyFor(email: string): { email: string; body: string } {
  sequence += 1;
  const issued = issueChallenge(BENCH_SECRET, Date.now());
  const body = JSON.stringify({
    ...VALID_SIGNUP,
    // Spread over every choice, as real sign-ups are; no notes, as most leave them blank.
    company_name: `Load Test Services ${sequence}`,
    email,
    business_type: BUSINESS_TYPE_VALUES[sequence % BUSINESS_TYPE_VALUES.length],
    company_size: COMPANY_SIZE_VALUES[sequence % COMPANY_SIZE_VALUES.length],
    notes: null,
    challenge_token: issued.token,
    challenge_answer: String(solve(issued.challenge)),
  });
  return { email, body };
}
