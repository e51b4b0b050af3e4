"use client";

import { useRouter } from "next/navigation";
import { useState, useSyncExternalStore } from "react";
import { noSubscription, useHydrated } from "@/components/operator/use-hydrated";
import { buttonClasses } from "@/components/ui/button-styles";
import { problemOf, registerPasskey } from "@/lib/auth/client";
import { ConfirmLink } from "@/components/operator/confirm-link";
import { PASSKEY_NAME_MAX } from "@/lib/auth/passkey-name";

/**
 * Creating a passkey: with the enrolment link's token (in the address's #fragment,
 * which never reaches a server; it is then posted in a request body) for a first
 * passkey, or without one, signed in and freshly confirmed, for another. Either
 * way the browser makes the key pair; only the public key comes to us.
 */
let enrolmentToken: string | null = null;

/** The link's token, read from the #fragment once and then taken out of the address bar (and so the history). */
function readEnrolmentToken(): string {
  if (enrolmentToken === null) {
    enrolmentToken = window.location.hash.slice(1);
    if (enrolmentToken) history.replaceState(null, "", window.location.pathname);
  }
  return enrolmentToken;
}

export function PasskeyEnrolment({ mode }: { mode: "enrol" | "add" }) {
  const router = useRouter();
  // null while rendering on the server (which never sees the fragment).
  const token = useSyncExternalStore(
    noSubscription,
    () => (mode === "enrol" ? readEnrolmentToken() : null),
    () => null,
  );
  const [state, setState] = useState<{ busy: boolean; problem?: string; confirm?: string }>({ busy: false });
  const [name, setName] = useState("");
  const hydrated = useHydrated();

  async function create() {
    setState({ busy: true });
    const { error } = await registerPasskey(mode === "enrol" ? { enrolmentToken: token ?? "" } : { name: name.trim() || undefined });
    if (error) {
      setState({ busy: false, problem: problemOf(error, "The passkey was not created. Try again."), confirm: error.confirm });
      return;
    }
    if (mode === "enrol") router.replace("/operator");
    else {
      setState({ busy: false });
      setName("");
      router.refresh();
    }
  }

  if (mode === "enrol" && token === "") {
    return (
      <p role="alert" className="rounded-lg bg-amber-50 p-4 text-sm text-amber-900">
        This page needs the whole link from your invitation, including the part after #. Open the link again, or ask for a new one.
      </p>
    );
  }
  return (
    <div>
      {mode === "add" && (
        <div className="mb-3">
          <label htmlFor="passkey-name" className="block text-sm font-medium text-slate-700">
            Name it (optional)
          </label>
          <input
            id="passkey-name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            maxLength={PASSKEY_NAME_MAX}
            placeholder="Work laptop"
            className="mt-1 block w-full max-w-xs rounded-lg border border-slate-300 px-2.5 py-2 text-sm"
          />
        </div>
      )}
      <button
        type="button"
        onClick={create}
        disabled={state.busy || !hydrated || (mode === "enrol" && token === null)}
        className={buttonClasses(
          mode === "enrol" ? "primary" : "outline",
          mode === "enrol" ? "lg" : "md",
          mode === "enrol" ? "w-full" : "",
        )}
      >
        {state.busy ? "Waiting for your device…" : mode === "enrol" ? "Create my passkey" : "Add a passkey"}
      </button>
      <p role="alert" className="mt-3 min-h-5 text-sm text-red-800">
        {state.problem}
        <ConfirmLink href={state.confirm} />
      </p>
    </div>
  );
}
