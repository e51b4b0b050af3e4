import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading } from "@/components/operator/console-frame";
import { PasskeySignIn } from "@/components/operator/passkey-sign-in";
import { FRESH_SIGN_IN_MINUTES, safeConsolePath } from "@/lib/auth/roles";
import { requireOperator } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Confirm it's you" };

type Props = { searchParams: Promise<{ return?: string | string[] }> };

/**
 * The step-up: a dangerous act (adding a passkey, a download, removing an entry, the
 * invitation text, managing operators) needs a passkey sign-in within the last
 * FRESH_SIGN_IN_MINUTES. Signing in again here replaces the session, then back to the page.
 */
export default async function ConfirmPage({ searchParams }: Props) {
  const operator = await requireOperator();
  const wanted = (await searchParams).return;
  const next = safeConsolePath(typeof wanted === "string" ? wanted : undefined);
  return (
    <ConsoleFrame operatorEmail={operator.email} role={operator.role}>
      <div className="mx-auto max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <ConsoleHeading title="Confirm it's you">
          Downloads, removals, the invitation text, operators and new passkeys need a passkey sign-in within the last{" "}
          {FRESH_SIGN_IN_MINUTES} minutes. Use your passkey once more, and you will be back where you were.
        </ConsoleHeading>
        <PasskeySignIn next={next} label="Confirm with my passkey" />
        <p className="mt-4 text-sm text-slate-600">
          Signed in with an emailed link because your passkey is lost? Ask an admin for a new enrolment link: an email link alone does not
          unlock these.
        </p>
        <p className="mt-4 text-sm">
          <a href={next} className="font-medium text-brand-700 underline">
            Go back without confirming
          </a>
        </p>
      </div>
    </ConsoleFrame>
  );
}
