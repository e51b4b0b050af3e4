import type { WaitlistSignupInput } from "@/lib/waitlist/schema";
import { solvedChallenge } from "./challenge";

export const ENDPOINT_URL = "http://localhost:3000/api/waitlist";

let sequence = 0;

/** A valid sign-up body; each call gets a distinct email unless one is given. */
export function validSignup(overrides: Partial<Record<keyof WaitlistSignupInput, unknown>> = {}) {
  sequence += 1;
  return {
    company_name: "Northwind Heating & Air",
    contact_name: "Dana Ortiz",
    email: `dana.${sequence}.${Date.now()}@northwind.example`,
    phone: "+1 (555) 201-7788",
    business_type: "hvac",
    company_size: "6-10",
    notes: "We run 8 trucks across two counties.",
    ...overrides,
  };
}

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
