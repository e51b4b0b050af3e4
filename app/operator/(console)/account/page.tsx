import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading } from "@/components/operator/console-frame";
import { PasskeyEnrolment } from "@/components/operator/passkey-enrolment";
import { requireOperator } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const operator = await requireOperator();
  const passkeys = await getDatabase().operatorPasskey.findMany({
    where: { userId: operator.id },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, deviceType: true, backedUp: true, createdAt: true },
  });
  return (
    <ConsoleFrame operatorEmail={operator.email} current="/operator/account">
      <ConsoleHeading title="Account">
        Signed in as {operator.name} ({operator.email}).
      </ConsoleHeading>
      <section aria-labelledby="passkeys" className="max-w-2xl rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="passkeys" className="text-lg font-semibold text-slate-900">
          Your passkeys
        </h2>
        {passkeys.length === 0 ? (
          <p className="mt-2 text-sm text-amber-900">You have no passkey yet: add one now, or you will need a new link to sign in next time.</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100 text-sm">
            {passkeys.map((key, i) => (
              <li key={key.id} className="py-2">
                <span className="font-medium">{key.name || `Passkey ${i + 1}`}</span>
                <span className="text-slate-600">
                  {" "}
                  · {key.deviceType === "multiDevice" ? "synced" : "this device only"}
                  {key.createdAt ? ` · added ${key.createdAt.toISOString().slice(0, 10)}` : ""}
                </span>
              </li>
            ))}
          </ul>
        )}
        <p className="mt-4 text-sm text-slate-600">A second passkey (another device, or a security key) keeps you in if you lose the first.</p>
        <div className="mt-3">
          <PasskeyEnrolment mode="add" />
        </div>
      </section>
    </ConsoleFrame>
  );
}
