import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading, ConsoleSection } from "@/components/operator/console-frame";
import { FreshSignInNotice } from "@/components/operator/fresh-sign-in-notice";
import { AddOperatorForm, OperatorRowForms } from "@/components/operator/operator-forms";
import { ADMIN_ONLY, ROLE_LABELS } from "@/lib/auth/roles";
import { requireOperator } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";
import { parseEnv } from "@/lib/env";
import { listOperators } from "@/lib/operator/operators";
import { momentIn } from "@/lib/operator/time-format";
import { consoleTimeZone } from "@/lib/operator/time-zone";
import { operatorsAction } from "./actions";

export const metadata: Metadata = { title: "Operators" };

/** Admins only: who may use the console, with which role; add, re-enrol, change and remove them. */
export default async function OperatorsPage() {
  const operator = await requireOperator("manage_operators");
  const [operators, { zone }] = await Promise.all([listOperators(getDatabase()), consoleTimeZone(operator.id)]);
  const when = momentIn(zone);
  const env = parseEnv();
  const emailed = Boolean(env.SMTP_URL && env.MAIL_FROM);
  return (
    <ConsoleFrame operatorEmail={operator.email} role={operator.role} current="/operator/operators">
      <ConsoleHeading title="Operators">
        Admins may {Object.values(ADMIN_ONLY).join(", ")}. Members work the queue, notes, follow-up and the list.
      </ConsoleHeading>
      <FreshSignInNotice session={operator} returnTo="/operator/operators" what="Managing operators" />
      <ConsoleSection id="add" title="Add an operator" className="mt-4">
        <p className="mt-1 text-sm text-slate-600">
          They get a one-time link to create their passkey, good for 24 hours{emailed ? ", emailed to them" : ", shown here once for you to pass on"}.
        </p>
        <AddOperatorForm action={operatorsAction} />
      </ConsoleSection>
      <ConsoleSection id="team" title={`The team (${operators.length})`} className="mt-6">
        <ul className="mt-3 divide-y divide-slate-100">
          {operators.map((o) => (
            <li key={o.id} className="grid gap-2 py-3 lg:grid-cols-[1fr_auto] lg:items-start">
              <div className="text-sm">
                <p className="font-medium text-slate-900">
                  {o.name} <span className="font-normal text-slate-600">{o.email}</span>
                  {o.id === operator.id && <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">you</span>}
                </p>
                <p className="text-slate-600">
                  {ROLE_LABELS[o.role]} · {o.passkeys} passkey{o.passkeys === 1 ? "" : "s"} · {o.sessions > 0 ? `signed in (${o.sessions})` : "not signed in"} · last sign-in {o.lastSignIn ? when(o.lastSignIn) : "never"}
                </p>
              </div>
              <OperatorRowForms action={operatorsAction} email={o.email} role={o.role} isYou={o.id === operator.id} />
            </li>
          ))}
        </ul>
      </ConsoleSection>
    </ConsoleFrame>
  );
}
