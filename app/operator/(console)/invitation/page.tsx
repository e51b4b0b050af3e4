import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading, ConsoleSection } from "@/components/operator/console-frame";
import { InvitationEditor } from "@/components/operator/invitation-editor";
import { saveInvitation } from "./actions";
import { requireOperator } from "@/lib/auth/session";
import { may } from "@/lib/auth/roles";
import { FreshSignInNotice } from "@/components/operator/fresh-sign-in-notice";
import { getDatabase } from "@/lib/db";
import { loadInvitationTemplate, renderInvitation } from "@/lib/follow-up/invitation";
import { momentIn } from "@/lib/console/time-format";
import { consoleTimeZone } from "@/lib/console/time-zone";

export const metadata: Metadata = { title: "Invitation email" };

/** The visitor the preview is written for. */
const EXAMPLE = { contactName: "Dana Ortiz", companyName: "Northwind Heating & Air", confirmedAt: new Date() };

export default async function InvitationPage() {
  const operator = await requireOperator();
  const [template, { zone }] = await Promise.all([loadInvitationTemplate(getDatabase()), consoleTimeZone(operator.id)]);
  const preview = renderInvitation(template, EXAMPLE, "https://fieldcrew.app/waitlist/entry/…");
  const unconfirmed = renderInvitation(template, { ...EXAMPLE, confirmedAt: null }, "https://fieldcrew.app/waitlist/entry/…");
  return (
    <ConsoleFrame operatorEmail={operator.email} role={operator.role} current="/operator/invitation">
      <ConsoleHeading title="Invitation email">
        What an entry is sent when it is marked invited (from the queue or its page), through the same outbox and hourly caps as
        confirmations.
      </ConsoleHeading>
      <div className="grid gap-6 lg:grid-cols-2">
        <ConsoleSection id="edit" title="Edit">
          {may(operator.role, "edit_invitation") ? (
            <>
              <FreshSignInNotice session={operator} returnTo="/operator/invitation" what="Changing the invitation" />
              <div className="mt-3">
                <InvitationEditor
                  save={saveInvitation}
                  initial={{ values: { subject: template.subject, body: template.body }, problems: {}, saved: false }}
                />
              </div>
            </>
          ) : (
            <p className="mt-3 text-sm text-slate-600">
              Only an admin can change the invitation. This is the text invitations are sent with now.
            </p>
          )}
          <p className="mt-4 text-sm text-slate-600">
            {template.updatedAt
              ? `Last saved by ${template.updatedBy}, ${momentIn(zone)(template.updatedAt)}.`
              : "This is the default text; nobody has edited it yet."}
          </p>
        </ConsoleSection>
        <ConsoleSection
          id="preview"
          title={
            <>
              As saved, for {EXAMPLE.contactName} of {EXAMPLE.companyName}
            </>
          }
        >
          <p className="mt-3 text-sm text-slate-600">Subject</p>
          <p className="font-semibold text-slate-900">{preview.subject}</p>
          <p className="mt-3 text-sm text-slate-600">Message (the plain-text part; the HTML part says the same in the site&apos;s look)</p>
          <pre className="mt-1 rounded-lg bg-slate-50 p-3 text-sm whitespace-pre-wrap text-slate-800 wrap-anywhere">{preview.text}</pre>
        </ConsoleSection>
        <ConsoleSection id="unconfirmed" title="For an address that is not confirmed yet" className="lg:col-span-2">
          <p className="mt-1 text-sm text-slate-600">
            Until a visitor confirms their address from their email, their invitation leaves out the name and company they typed: anyone can
            sign up someone else&apos;s address, and we never mail their words to it.
          </p>
          <p className="mt-3 font-semibold text-slate-900">{unconfirmed.subject}</p>
          <pre className="mt-1 rounded-lg bg-slate-50 p-3 text-sm whitespace-pre-wrap text-slate-800 wrap-anywhere">{unconfirmed.text}</pre>
        </ConsoleSection>
      </div>
    </ConsoleFrame>
  );
}
