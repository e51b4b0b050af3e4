"use client";

import { useState, type FormEvent } from "react";
import { buttonClasses } from "@/components/ui/button-styles";
import { authClient, problemOf } from "@/lib/auth/client";

/** For an operator who lost their passkey (only offered when the site can send email). */
export function EmailLinkRequest() {
  const [state, setState] = useState<{ busy: boolean; sent?: boolean; problem?: string }>({ busy: false });

  async function request(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    setState({ busy: true });
    const result = await authClient.signIn.magicLink({ email, callbackURL: "/operator", errorCallbackURL: "/operator/sign-in" });
    if (result.error) setState({ busy: false, problem: problemOf(result.error, "That did not work. Check the address and try again.") });
    else setState({ busy: false, sent: true });
  }

  if (state.sent) {
    return (
      <p role="status" className="rounded-lg bg-emerald-50 p-4 text-sm text-emerald-900">
        If that address belongs to an operator, a sign-in link is on its way. It works once, for 15 minutes.
      </p>
    );
  }
  return (
    <form onSubmit={request} noValidate>
      <label htmlFor="operator-email" className="block text-sm font-medium text-slate-800">
        Your work email
      </label>
      <div className="mt-1.5 flex flex-col gap-2 sm:flex-row">
        <input
          id="operator-email"
          name="email"
          type="email"
          autoComplete="username"
          required
          className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-base"
        />
        <button type="submit" disabled={state.busy} className={buttonClasses("outline", "md")}>
          Email me a sign-in link
        </button>
      </div>
      <p role="alert" className="mt-2 min-h-5 text-sm text-red-800">
        {state.problem}
      </p>
    </form>
  );
}
