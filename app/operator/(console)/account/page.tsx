import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading, ConsoleSection } from "@/components/operator/console-frame";
import { PasskeyEnrolment } from "@/components/operator/passkey-enrolment";
import { requireOperator } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";
import { buttonClasses } from "@/components/ui/button-styles";
import { timeZones } from "@/lib/operator/time-format";
import { consoleTimeZone } from "@/lib/operator/time-zone";

export const metadata: Metadata = { title: "Account" };

type Props = { searchParams: Promise<{ zone?: string }> };

export default async function AccountPage({ searchParams }: Props) {
  const operator = await requireOperator();
  const [{ zone: zoneResult }, shown, saved] = await Promise.all([
    searchParams,
    consoleTimeZone(operator.id),
    getDatabase().operator.findUnique({ where: { id: operator.id }, select: { timeZone: true } }),
  ]);
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
      <ConsoleSection id="passkeys" title="Your passkeys" className="max-w-2xl">
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
      </ConsoleSection>

      <ConsoleSection id="time-zone" title="Time zone" className="mt-6 max-w-2xl">
        <p className="mt-1 text-sm text-slate-600">
          The console shows times in {shown.zone}
          {shown.from === "browser" ? ", your browser's zone" : shown.from === "account" ? ", as you chose here" : ""}. Everything is stored in UTC.
        </p>
        {zoneResult === "saved" && (
          <p role="status" className="mt-2 text-sm text-emerald-800">
            Saved.
          </p>
        )}
        {zoneResult === "invalid" && (
          <p role="alert" className="mt-2 text-sm text-red-800">
            That is not a time zone this server knows; nothing was changed.
          </p>
        )}
        <form method="post" action="/api/operator/time-zone" className="mt-3 flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor="timeZone" className="block text-sm font-medium text-slate-700">
              Show times in
            </label>
            <select id="timeZone" name="timeZone" defaultValue={saved?.timeZone ?? ""} className="mt-1 block rounded-lg border border-slate-300 bg-white px-2.5 py-2 text-sm">
              <option value="">My browser&apos;s time zone</option>
              {timeZones().map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replaceAll("_", " ")}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={buttonClasses("outline", "sm")}>
            Save
          </button>
        </form>
      </ConsoleSection>
    </ConsoleFrame>
  );
}
