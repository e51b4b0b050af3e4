import type { WaitlistSignupInput } from "@/lib/waitlist/schema";
import { validSignup } from "../fixtures/signup";
import { solvedChallenge } from "./challenge";

export { validSignup };

export const ENDPOINT_URL = "http://localhost:3000/api/waitlist";

/** What the dialog posts: a valid sign-up with a freshly issued, correctly answered question. */
export function signupBody(overrides: Partial<Record<keyof WaitlistSignupInput, unknown>> = {}) {
  const { challenge_token, challenge_answer } = solvedChallenge();
  return { ...validSignup(overrides), challenge_token, challenge_answer };
}

export function jsonRequest(body: unknown, init: RequestInit = {}): Request {
  return new Request(ENDPOINT_URL, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body),
    ...init,
  });
}

export async function answerOf(response: Response): Promise<{ status: number; body: Record<string, unknown> }> {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
