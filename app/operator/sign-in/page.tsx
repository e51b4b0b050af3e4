import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ConsoleFrame, ConsoleHeading } from "@/components/operator/console-frame";
import { EmailLinkRequest } from "@/components/operator/email-link-request";
import { PasskeySignIn } from "@/components/operator/passkey-sign-in";
import { currentOperator } from "@/lib/auth/session";
import { parseEnv } from "@/lib/env";

export const metadata: Metadata = { title: "Sign in" };

/** What an emailed link's failure comes back as (better-auth's codes), in words. */
const LINK_PROBLEMS: Record<string, string> = {
  INVALID_TOKEN: "That sign-in link has been used or has expired. Ask for a new one below.",
  EXPIRED_TOKEN: "That sign-in link has expired. Ask for a new one below.",
  new_user_signup_disabled: "That address is not an operator's. Ask the team to invite you.",
};

type Props = { searchParams: Promise<{ error?: string | string[] }> };

export default async function SignInPage({ searchParams }: Props) {
  if (await currentOperator()) redirect("/operator");
  const { error } = await searchParams;
  const env = parseEnv();
  const canEmail = Boolean(env.SMTP_URL && env.MAIL_FROM);
  const problem = typeof error === "string" ? (LINK_PROBLEMS[error] ?? "That sign-in link did not work. Try again.") : undefined;
  return (
    <ConsoleFrame>
      <div className="mx-auto max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <ConsoleHeading title="Sign in to the console">
          For the FieldCrew launch team. Use the passkey you created from your invitation.
        </ConsoleHeading>
        {problem && (
          <p role="alert" className="mb-4 rounded-lg bg-red-50 p-3 text-sm text-red-900">
            {problem}
          </p>
        )}
        <PasskeySignIn next="/operator" />
        <div className="mt-6 border-t border-slate-200 pt-6">
          <h2 className="font-semibold text-slate-900">Lost your passkey?</h2>
          <p className="mt-2 text-sm text-slate-600">
            Ask an admin for a new enrolment link (Operators, New link; or at the shell:{" "}
            <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">npm run waitlist -- operators enrol you@example.com</code>).
            {canEmail && " Meanwhile, a one-time link by email signs you in to work the queue."}
          </p>
          {canEmail && (
            <div className="mt-3">
              <EmailLinkRequest />
            </div>
          )}
        </div>
      </div>
    </ConsoleFrame>
  );
}
