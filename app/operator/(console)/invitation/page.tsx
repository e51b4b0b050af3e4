import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading, ConsoleSection } from "@/components/operator/console-frame";
import { InvitationEditor } from "@/components/operator/invitation-editor";
import { saveInvitation } from "./actions";
import { requireOperator } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";
import { loadInvitationTemplate, renderInvitation } from "@/lib/follow-up/invitation";
import { momentIn } from "@/lib/operator/time-format";
import { consoleTimeZone } from "@/lib/operator/time-zone";

export const metadata: Metadata = { title: "Invitation email" };

/** The visitor the preview is written for. */
const EXAMPLE = { contactName: "Dana Ortiz", companyName: "Northwind Heating & Air" };

export default async function InvitationPage() {
  const operator = await requireOperator();
  const [template, { zone }] = await Promise.all([loadInvitationTemplate(getDatabase()), consoleTimeZone(operator.id)]);
  const preview = renderInvitation(template, EXAMPLE, "https://fieldcrew.app/waitlist/entry/…");
  return (
    <ConsoleFrame operatorEmail={operator.email} current="/operator/invitation">
      <ConsoleHeading title="Invitation email">
        What an entry is sent when it is marked invited (from the queue or its page), through the same outbox and hourly caps as confirmations.
      </ConsoleHeading>
      <div className="grid gap-6 lg:grid-cols-2">
        <ConsoleSection id="edit" title="Edit">
          <div className="mt-3">
            <InvitationEditor save={saveInvitation} initial={{ values: { subject: template.subject, body: template.body }, problems: {}, saved: false }} />
          </div>
          <p className="mt-4 text-sm text-slate-600">
            {template.updatedAt ? `Last saved by ${template.updatedBy}, ${momentIn(zone)(template.updatedAt)}.` : "This is the default text; nobody has edited it yet."}
          </p>
        </ConsoleSection>
        <ConsoleSection id="preview" title={<>As saved, for {EXAMPLE.contactName} of {EXAMPLE.companyName}</>}>
          <p className="mt-3 text-sm text-slate-600">Subject</p>
          <p className="font-semibold text-slate-900">{preview.subject}</p>
          <p className="mt-3 text-sm text-slate-600">Message (the plain-text part; the HTML part says the same in the site&apos;s look)</p>
          <pre className="mt-1 rounded-lg bg-slate-50 p-3 text-sm whitespace-pre-wrap text-slate-800 wrap-anywhere">{preview.text}</pre>
        </ConsoleSection>
      </div>
    </ConsoleFrame>
  );
}
