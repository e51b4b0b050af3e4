/**
 * One rule for a passkey's name, wherever it is given: when it is made (lib/auth/routes.ts) and
 * when it is renamed (lib/console/account.ts). Operators see names in the console and the shell.
 */
import { DISGUISING_CHARACTERS } from "../security/disguising-characters";

export const PASSKEY_NAME_MAX = 60;

/** The name as kept (null: none), or "too_long" past PASSKEY_NAME_MAX characters. */
export function passkeyName(typed: string): string | null | "too_long" {
  const name = typed.replace(DISGUISING_CHARACTERS, " ").trim();
  if (Array.from(name).length > PASSKEY_NAME_MAX) return "too_long";
  return name || null;
}
