import type { Metadata } from "next";
import { ConsoleFrame, ConsoleHeading } from "@/components/operator/console-frame";
import { ADMIN_ONLY, type Permission } from "@/lib/auth/roles";
import { requireOperator } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Not part of your role" };

type Props = { searchParams: Promise<{ need?: string | string[] }> };

/** Where a page an operator's role does not include sends them: what it was and who can do it. */
export default async function NotAllowedPage({ searchParams }: Props) {
  const operator = await requireOperator();
  const need = (await searchParams).need;
  const what = typeof need === "string" && need in ADMIN_ONLY ? ADMIN_ONLY[need as Permission] : undefined;
  return (
    <ConsoleFrame operatorEmail={operator.email} role={operator.role}>
      <ConsoleHeading title="Not part of your role">
        You are signed in as a {operator.role}. {what ? `Only an admin may ${what}.` : "That page is for admins."} Ask an admin if you need
        it done, or to change your role.
      </ConsoleHeading>
      <a href="/operator" className="font-medium text-brand-700 underline">
        Back to the queue
      </a>
    </ConsoleFrame>
  );
}
