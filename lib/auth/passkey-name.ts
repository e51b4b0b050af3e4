/**
 * One rule for a passkey's name, wherever it is given: when it is made (lib/auth/routes.ts) and
 * when it is renamed (lib/operator/account.ts). Operators see names in the console and the shell.
 */

export const PASSKEY_NAME_MAX = 60;

/** Control characters and bidirectional overrides, which could disguise what a name shows. */
const UNSAFE_IN_NAME = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** The name as kept (null: none), or "too_long" past PASSKEY_NAME_MAX characters. */
export function passkeyName(typed: string): string | null | "too_long" {
  const name = typed.replace(UNSAFE_IN_NAME, " ").trim();
  if (Array.from(name).length > PASSKEY_NAME_MAX) return "too_long";
  return name || null;
}

export const PASSKEY_NAME_TOO_LONG = `A passkey's name is at most ${PASSKEY_NAME_MAX} characters.`;
