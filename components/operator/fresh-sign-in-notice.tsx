import { confirmUrl, FRESH_SIGN_IN_MINUTES, isFreshSignIn, type SessionOrigin } from "@/lib/auth/roles";
import { ConfirmLink } from "@/components/operator/confirm-link";

/**
 * Above a dangerous act's form: when the session is not a passkey sign-in of the last
 * 10 minutes, says so and links to the step-up, which comes back to `returnTo`.
 */
export function FreshSignInNotice({ session, returnTo, what }: { session: SessionOrigin; returnTo: string; what: string }) {
  if (isFreshSignIn(session)) return null;
  return (
    <p className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
      {what} needs a passkey sign-in within the last {FRESH_SIGN_IN_MINUTES} minutes.
      <ConfirmLink href={confirmUrl(returnTo)} />
    </p>
  );
}
