import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading } from "@/components/operator/console-frame";
import { buttonClasses } from "@/components/ui/button-styles";
import { AUTH_BASE_PATH } from "@/lib/auth/auth";

export const metadata: Metadata = { title: "Sign in with your link" };

type Props = { searchParams: Promise<{ token?: string | string[] }> };

/**
 * Where an emailed sign-in link lands. Signing in takes a click here: mail
 * scanners that open every link in a message would otherwise use the one-time
 * link up before the operator could.
 */
export default async function EmailLinkPage({ searchParams }: Props) {
  const { token } = await searchParams;
  return (
    <ConsoleFrame>
      <div className="mx-auto max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <ConsoleHeading title="Sign in with your link">
          The link works once. It lets you work the queue; for a new passkey, ask an admin for a new enrolment link.
        </ConsoleHeading>
        {typeof token === "string" && token ? (
          <form method="get" action={`${AUTH_BASE_PATH}/magic-link/verify`}>
            <input type="hidden" name="token" value={token} />
            <input type="hidden" name="callbackURL" value="/operator" />
            <input type="hidden" name="errorCallbackURL" value="/operator/sign-in" />
            <button type="submit" className={buttonClasses("primary", "lg", "w-full")}>
              Sign in
            </button>
          </form>
        ) : (
          <p role="alert" className="text-sm text-red-900">
            This address is missing its token. Open the link from the email again.
          </p>
        )}
      </div>
    </ConsoleFrame>
  );
}
