import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading, ConsoleSection } from "@/components/operator/console-frame";
import { FreshSignInNotice } from "@/components/operator/fresh-sign-in-notice";
import { AddOperatorForm, OperatorTeam } from "@/components/operator/operator-forms";
import { ADMIN_ONLY, ROLE_LABELS } from "@/lib/auth/roles";
import { requireOperator } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";
import { parseEnv } from "@/lib/env";
import { listOperators } from "@/lib/console/operators";
import { momentIn } from "@/lib/console/time-format";
import { consoleTimeZone } from "@/lib/console/time-zone";
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
          They get a one-time link to create their passkey, good for 24 hours
          {emailed ? ", emailed to them" : ", shown here once for you to pass on"}.
        </p>
        <AddOperatorForm action={operatorsAction} />
      </ConsoleSection>
      <ConsoleSection id="team" title={`The team (${operators.length})`} className="mt-6">
        <OperatorTeam
          action={operatorsAction}
          youId={operator.id}
          team={operators.map((o) => ({
            id: o.id,
            email: o.email,
            name: o.name,
            role: o.role,
            summary: `${ROLE_LABELS[o.role]} · ${o.passkeys} passkey${o.passkeys === 1 ? "" : "s"} · ${o.sessions > 0 ? `signed in (${o.sessions})` : "not signed in"} · last sign-in ${o.lastSignIn ? when(o.lastSignIn) : "never"}`,
          }))}
        />
      </ConsoleSection>
    </ConsoleFrame>
  );
}
