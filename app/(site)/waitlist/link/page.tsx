import type { Metadata } from "next";
import { connection } from "next/server";
import { LinkAgainForm } from "@/components/waitlist/link-again-form";
import { PAGES } from "@/lib/content/pages";
import { pageMetadata } from "@/lib/content/metadata";
import { askForLinkAgain } from "./actions";

export const metadata: Metadata = pageMetadata(PAGES.linkAgain);

/** "Email me my link again": for a visitor who lost the confirmation email. Works with no script. */
export default async function LinkAgainPage() {
  // Answers posts (a Server Action), so it is made per request, with a nonce (server.ts).
  await connection();
  return (
    <section aria-labelledby="link-again-title" className="bg-slate-50 px-3 py-12 sm:px-6 sm:py-20">
      <div className="mx-auto max-w-lg rounded-2xl bg-white p-5 text-slate-800 shadow-xl ring-1 ring-slate-200 sm:p-8">
        <h1 id="link-again-title" className="text-2xl font-bold text-slate-900 sm:text-3xl">
          Email me my link again
        </h1>
        <p className="mt-2 text-slate-700">
          The confirmation email we sent when you joined has a link to your own page, where you can confirm your address, download your data
          or leave the waitlist. Lost it? Enter the address you joined with and we&apos;ll send a new one.
        </p>
        <div className="mt-6">
          <LinkAgainForm action={askForLinkAgain} />
        </div>
      </div>
    </section>
  );
}
