/**
 * The browser's one call (spec section 7) and how its answer becomes a message
 * from the catalogue (spec section 8).
 */
import { DUPLICATE_MARKER, VISITOR_MESSAGES } from "./messages";
import type { FieldErrors, WaitlistSignup } from "./schema";

export const WAITLIST_ENDPOINT = "/api/waitlist";

export type SubmitResult = { ok: true } | { ok: false; message: string; fields?: FieldErrors };

async function errorBodyOf(response: Response): Promise<{ error?: unknown; fields?: unknown }> {
  try {
    const body: unknown = await response.json();
    return typeof body === "object" && body !== null ? body : {};
  } catch {
    return {};
  }
}

export async function submitSignup(signup: WaitlistSignup, fetchImpl: typeof fetch = fetch): Promise<SubmitResult> {
  let response: Response;
  try {
    response = await fetchImpl(WAITLIST_ENDPOINT, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(signup),
    });
  } catch {
    // Offline, DNS, connection reset: the visitor can simply try again.
    return { ok: false, message: VISITOR_MESSAGES.generic };
  }
  // The product does not read a success body (spec section 7).
  if (response.ok) return { ok: true };

  const { error, fields } = await errorBodyOf(response);
  if (typeof error === "string" && error.includes(DUPLICATE_MARKER)) {
    return { ok: false, message: VISITOR_MESSAGES.alreadyOnList };
  }
  return {
    ok: false,
    message: VISITOR_MESSAGES.generic,
    ...(typeof fields === "object" && fields !== null ? { fields: fields as FieldErrors } : {}),
  };
}
