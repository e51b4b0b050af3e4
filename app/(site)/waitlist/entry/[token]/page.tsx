import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { VisitorEntry } from "@/components/waitlist-entry/visitor-entry";
import { ENTRY_ACTIONS, loadEntryPage, type EntryAction } from "@/lib/waitlist/visitor-entry";

// Read from the database on every visit; the link in the email is the only way here.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { absolute: "Your waitlist entry | FieldCrew" },
  robots: { index: false, follow: false },
  // The address carries the visitor's key: never send it to another page as a Referer.
  referrer: "no-referrer",
};

type Props = { params: Promise<{ token: string }>; searchParams: Promise<{ done?: string | string[] }> };

export default async function WaitlistEntryPage({ params, searchParams }: Props) {
  const [{ token }, { done }] = await Promise.all([params, searchParams]);
  const page = await loadEntryPage(token);
  if (page.state === "invalid") notFound();
  const action = ENTRY_ACTIONS.find((candidate) => candidate === done) as EntryAction | undefined;
  return <VisitorEntry page={page} token={token} done={action} />;
}
