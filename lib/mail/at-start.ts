/**
 * What the server checks of its mail settings before it starts (server.ts): a DKIM key that cannot
 * sign well, a bounce address that cannot carry tags, or SMTP credentials that would cross the
 * network in the clear stop the start with one sentence; a key file others can read is a warning.
 */
import type { Env } from "../env";
import { bounceAddressProblem } from "./bounce-address";
import { DkimKeyProblem, dkimFromEnv, dkimKeyFileWarning } from "./dkim";
import { plaintextAuthProblem } from "./smtp";

export async function mailAtStart(env: Env): Promise<{ refusal: string | null; warnings: string[] }> {
  const warnings = [dkimKeyFileWarning(env)].filter((warning) => warning !== null);
  try {
    dkimFromEnv(env);
  } catch (error) {
    if (!(error instanceof DkimKeyProblem)) throw error;
    return { refusal: error.message, warnings };
  }
  const bounce = env.MAIL_BOUNCE_ADDRESS ? bounceAddressProblem(env.MAIL_BOUNCE_ADDRESS) : null;
  if (bounce) return { refusal: bounce, warnings };
  const refusal = env.SMTP_URL
    ? await plaintextAuthProblem({ smtpUrl: env.SMTP_URL, allowPlaintextAuth: env.SMTP_ALLOW_PLAINTEXT_AUTH })
    : null;
  return { refusal, warnings };
}
