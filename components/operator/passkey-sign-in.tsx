"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useHydrated } from "@/components/operator/use-hydrated";
import { buttonClasses } from "@/components/ui/button-styles";
import { authClient, problemOf } from "@/lib/auth/client";

/**
 * "Sign in with a passkey": the browser asks for any passkey of this site (no name to type).
 * Signed in already, it is the step-up: the browser offers the operator's own passkeys, and
 * the new sign-in replaces the session (lib/auth/routes.ts).
 */
export function PasskeySignIn({ next, label = "Sign in with a passkey" }: { next: string; label?: string }) {
  const router = useRouter();
  const [state, setState] = useState<{ busy: boolean; problem?: string }>({ busy: false });
  const hydrated = useHydrated();

  async function signIn() {
    setState({ busy: true });
    const result = await authClient.signIn.passkey();
    if (result?.error) {
      setState({ busy: false, problem: problemOf(result.error, "That passkey did not sign you in. Try again, or use another passkey.") });
      return;
    }
    router.replace(next);
  }

  return (
    <div>
      <button type="button" onClick={signIn} disabled={state.busy || !hydrated} className={buttonClasses("primary", "lg", "w-full")}>
        {state.busy ? "Waiting for your passkey…" : label}
      </button>
      <p role="alert" className="mt-3 min-h-5 text-sm text-red-800">
        {state.problem}
      </p>
    </div>
  );
}
