import type { Metadata } from "next";
import { UnsubscribeChoice } from "@/components/waitlist-entry/unsubscribe-choice";
import { loadUnsubscribePage } from "@/lib/waitlist/unsubscribe";

// Read on every visit: it says whether mail still goes to the entry.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { absolute: "Unsubscribe | FieldCrew" },
  robots: { index: false, follow: false },
  // The address carries the unsubscribe token: never send it to another page as a Referer.
  referrer: "no-referrer",
};

type Props = { params: Promise<{ token: string }> };

/** Where a GET of an email's unsubscribe link leads: one button, nothing about the person. */
export default async function UnsubscribePage({ params }: Props) {
  const { token } = await params;
  // A link the site did not sign gets a page that says so (not notFound(), which Next.js 16 renders
  // blank without JavaScript on a per-request page: lib/site/invalid-entry-link.ts).
  return <UnsubscribeChoice page={await loadUnsubscribePage(token)} token={token} />;
}
