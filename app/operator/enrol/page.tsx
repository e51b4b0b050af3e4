import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading } from "@/components/operator/console-frame";
import { PasskeyEnrolment } from "@/components/operator/passkey-enrolment";

export const metadata: Metadata = { title: "Create your passkey" };

/** The enrolment link's page (npm run waitlist -- operators add / enrol). The token is in the #fragment. */
export default function EnrolPage() {
  return (
    <ConsoleFrame>
      <div className="mx-auto max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <ConsoleHeading title="Create your passkey">
          A passkey signs you in to the console with this device&apos;s screen lock, fingerprint or face, or a security key. There is no
          password.
        </ConsoleHeading>
        <PasskeyEnrolment mode="enrol" />
        <p className="mt-4 text-sm text-slate-600">
          The link works once and expires 24 hours after it was made. You can add more passkeys later under Account.
        </p>
      </div>
    </ConsoleFrame>
  );
}
