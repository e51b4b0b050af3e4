import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading, ConsoleSection } from "@/components/operator/console-frame";
import { PasskeyEnrolment } from "@/components/operator/passkey-enrolment";
import { requireOperator } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";
import { buttonClasses } from "@/components/ui/button-styles";
import { momentIn, timeZones } from "@/lib/console/time-format";
import { FreshSignInNotice } from "@/components/operator/fresh-sign-in-notice";
import { PASSKEY_NAME_MAX } from "@/lib/auth/passkey-name";
import { ownPasskeys, ownSessions } from "@/lib/console/account";
import { consoleTimeZone } from "@/lib/console/time-zone";

export const metadata: Metadata = { title: "Account" };

type Props = { searchParams: Promise<{ zone?: string; done?: string }> };

/** What the account's forms came to (lib/console/account.ts), in fixed words. */
const DONE: Record<string, { text: string; ok: boolean }> = {
  renamed: { text: "Passkey renamed.", ok: true },
  removed: { text: "Passkey removed: it can no longer sign you in.", ok: true },
  last_passkey: { text: "That is your only passkey, so it stays: add another one first.", ok: false },
  no_such_passkey: { text: "That passkey is not one of yours any more; nothing was changed.", ok: false },
  name: { text: "Keep a passkey's name under 60 characters; nothing was changed.", ok: false },
  signed_out: { text: "That browser is signed out.", ok: true },
  signed_out_others: { text: "Every other browser is signed out.", ok: true },
  no_such_session: { text: "That browser was already signed out (or is this one: use Sign out above).", ok: false },
};

const SIGNED_IN_WITH: Record<string, string> = { passkey: "a passkey", enrolment: "an enrolment link", "email link": "an emailed link" };

export default async function AccountPage({ searchParams }: Props) {
  const operator = await requireOperator();
  const database = getDatabase();
  const [{ zone: zoneResult, done }, shown, saved, passkeys, sessions] = await Promise.all([
    searchParams,
    consoleTimeZone(operator.id),
    database.operator.findUnique({ where: { id: operator.id }, select: { timeZone: true } }),
    ownPasskeys(database, operator.id),
    ownSessions(database, operator.id, operator.sessionId),
  ]);
  const when = momentIn(shown.zone);
  const outcome = done ? DONE[done] : undefined;
  const others = sessions.filter((session) => !session.current).length;
  return (
    <ConsoleFrame operatorEmail={operator.email} role={operator.role} current="/operator/account">
      <ConsoleHeading title="Account">
        Signed in as {operator.name} ({operator.email}), {operator.role === "admin" ? "an admin" : "a member"}.
      </ConsoleHeading>
      {outcome && (
        <p
          role={outcome.ok ? "status" : "alert"}
          className={`mb-4 max-w-2xl rounded-lg p-3 text-sm ${outcome.ok ? "bg-emerald-50 text-emerald-900" : "bg-amber-50 text-amber-900"}`}
        >
          {outcome.text}
        </p>
      )}
      <ConsoleSection id="passkeys" title="Your passkeys" className="max-w-2xl">
        {passkeys.length === 0 ? (
          <p className="mt-2 text-sm text-amber-900">
            You have no passkey yet: add one now, or you will need a new link to sign in next time.
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100 text-sm">
            {passkeys.map((key, i) => (
              <li key={key.id} className="py-3">
                <p>
                  <span className="font-medium">{key.name || `Passkey ${i + 1}`}</span>
                  <span className="text-slate-600">
                    {" "}
                    · {key.deviceType === "multiDevice" ? "synced" : "this device only"}
                    {key.createdAt ? ` · added ${when(key.createdAt)}` : ""} ·{" "}
                    {key.lastUsedAt ? `last used ${when(key.lastUsedAt)}` : "not used to sign in yet"}
                  </span>
                </p>
                <div className="mt-2 flex flex-wrap items-end gap-2">
                  <form method="post" action="/api/operator/account" className="flex items-end gap-1">
                    <input type="hidden" name="intent" value="rename-passkey" />
                    <input type="hidden" name="id" value={key.id} />
                    <label htmlFor={`name-${key.id}`} className="sr-only">
                      New name for {key.name || `Passkey ${i + 1}`}
                    </label>
                    <input
                      id={`name-${key.id}`}
                      name="name"
                      defaultValue={key.name ?? ""}
                      maxLength={PASSKEY_NAME_MAX}
                      placeholder="Name"
                      className="w-40 rounded-lg border border-slate-300 px-2 py-1.5 text-sm"
                    />
                    <button type="submit" className={buttonClasses("outline", "sm")}>
                      Rename
                    </button>
                  </form>
                  {passkeys.length > 1 && (
                    <form method="post" action="/api/operator/account">
                      <input type="hidden" name="intent" value="remove-passkey" />
                      <input type="hidden" name="id" value={key.id} />
                      <button
                        type="submit"
                        className={buttonClasses("danger", "sm")}
                        aria-label={`Remove ${key.name || `Passkey ${i + 1}`}`}
                      >
                        Remove
                      </button>
                    </form>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
        <p className="mt-4 text-sm text-slate-600">
          A second passkey (another device, or a security key) keeps you in if you lose the first. Your only passkey cannot be removed.
        </p>
        <FreshSignInNotice session={operator} returnTo="/operator/account" what="Adding a passkey" />
        <div className="mt-3">
          <PasskeyEnrolment mode="add" />
        </div>
      </ConsoleSection>

      <ConsoleSection id="sessions" title="Where you are signed in" className="mt-6 max-w-2xl">
        <ul className="mt-3 divide-y divide-slate-100 text-sm">
          {sessions.map((session) => (
            <li key={session.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div>
                <p className="font-medium">
                  {session.browser}
                  {session.current && (
                    <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-800">this browser</span>
                  )}
                </p>
                <p className="text-slate-600">
                  Signed in {when(session.signedInAt)} with {SIGNED_IN_WITH[session.signedInWith ?? ""] ?? "a passkey or link"} · last seen{" "}
                  {when(session.lastSeenAt)}
                </p>
              </div>
              {!session.current && (
                <form method="post" action="/api/operator/account">
                  <input type="hidden" name="intent" value="end-session" />
                  <input type="hidden" name="id" value={session.id} />
                  <button type="submit" className={buttonClasses("outline", "sm")}>
                    Sign out
                  </button>
                </form>
              )}
            </li>
          ))}
        </ul>
        {others > 0 && (
          <form method="post" action="/api/operator/account" className="mt-3">
            <input type="hidden" name="intent" value="end-other-sessions" />
            <button type="submit" className={buttonClasses("outline", "sm")}>
              Sign out everywhere else ({others})
            </button>
          </form>
        )}
        <p className="mt-3 text-sm text-slate-600">
          A session ends after 60 minutes without use, and 12 hours after signing in whatever happens.
        </p>
      </ConsoleSection>

      <ConsoleSection id="time-zone" title="Time zone" className="mt-6 max-w-2xl">
        <p className="mt-1 text-sm text-slate-600">
          The console shows times in {shown.zone}
          {shown.from === "browser" ? ", your browser's zone" : shown.from === "account" ? ", as you chose here" : ""}. Everything is stored
          in UTC.
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
            <select
              id="timeZone"
              name="timeZone"
              defaultValue={saved?.timeZone ?? ""}
              className="mt-1 block rounded-lg border border-slate-300 bg-white px-2.5 py-2 text-sm"
            >
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
