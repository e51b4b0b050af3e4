/**
 * The browser's side of signing in: better-auth's client with the passkey and
 * email-link plugins, on this site's /api/auth. Only the console's sign-in,
 * enrolment, step-up and account pages load it; no public page does.
 */
import { passkeyClient } from "@better-auth/passkey/client";
import { startRegistration, WebAuthnError } from "@simplewebauthn/browser";
import { createAuthClient } from "better-auth/client";
import { magicLinkClient } from "better-auth/client/plugins";

export const authClient = createAuthClient({ basePath: "/api/auth", plugins: [passkeyClient(), magicLinkClient()] });

type AuthProblem = { message?: string; status?: number; code?: string; confirm?: string };

/** What the library's error says, or a sentence of ours when it says nothing useful. */
export function problemOf(error: AuthProblem | null | undefined, fallback: string): string {
  if (!error) return fallback;
  if (error.status === 429) return "Too many sign-in attempts from this network. Please wait a few minutes and try again.";
  if (error.status === 503) return "Signing in is not possible just now. Please try again in a few seconds.";
  return error.message && error.message.length < 200 ? error.message : fallback;
}

async function postJson(
  path: string,
  body: unknown,
): Promise<{ ok: true; data: Record<string, unknown> } | { ok: false; error: AuthProblem }> {
  const response = await fetch(`/api/auth${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.ok) return { ok: true, data };
  const message = typeof data.error === "string" ? data.error : typeof data.message === "string" ? data.message : undefined;
  return {
    ok: false,
    error: {
      status: response.status,
      message,
      code: typeof data.code === "string" ? data.code : undefined,
      confirm: typeof data.confirm === "string" ? data.confirm : undefined,
    },
  };
}

/**
 * Creates a passkey: the options asked for with a POST (an enrolment token in its body,
 * never in an address), the browser's ceremony, then the result verified. With a token
 * it enrols and signs in; without one it adds a passkey to the signed-in account, which
 * needs a fresh passkey sign-in (the answer then says where to confirm: `confirm`).
 */
export async function registerPasskey(options: { enrolmentToken?: string; name?: string }): Promise<{ error?: AuthProblem }> {
  const asked = await postJson("/passkey/generate-register-options", {
    ...(options.enrolmentToken ? { context: options.enrolmentToken } : {}),
    ...(options.name ? { name: options.name } : {}),
  });
  if (!asked.ok) return { error: asked.error };
  let response;
  try {
    response = await startRegistration({ optionsJSON: asked.data as unknown as Parameters<typeof startRegistration>[0]["optionsJSON"] });
  } catch (error) {
    if (error instanceof WebAuthnError && error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED")
      return { error: { message: "This device already has a passkey for your account." } };
    return { error: { message: "The passkey was not created: the request was cancelled or timed out." } };
  }
  const verified = await postJson("/passkey/verify-registration", {
    response,
    ...(options.name ? { name: options.name } : {}),
    ...(options.enrolmentToken ? { createSession: true } : {}),
  });
  return verified.ok ? {} : { error: verified.error };
}
