import type { Metadata } from "next";
import { headers } from "next/headers";
import { JoinForm } from "@/components/waitlist/join-form";
import { PAGES } from "@/lib/content/pages";
import { pageMetadata } from "@/lib/content/metadata";
import { firstJoinStateOnSite } from "@/lib/site/forms";
import { joinWaitlist } from "./actions";

// Each visit gets its own security question, so the page is made per request (and never cached: server.ts).
export const dynamic = "force-dynamic";

export const metadata: Metadata = pageMetadata(PAGES.join);

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The join page: the dialog's form as a page of its own, which needs no script (every Join button links here). */
export default async function JoinPage({ searchParams }: Props) {
  const [query, requestHeaders] = await Promise.all([searchParams, headers()]);
  const search = new URLSearchParams(Object.entries(query).flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : [])));
  const initial = firstJoinStateOnSite(new Headers(requestHeaders), search);
  return (
    <section aria-labelledby="join-title" className="bg-slate-50 px-3 py-10 sm:px-6 sm:py-16">
      <div className="mx-auto max-w-2xl rounded-2xl bg-white p-5 text-slate-800 shadow-xl ring-1 ring-slate-200 sm:p-8">
        <JoinForm initial={initial} action={joinWaitlist} titleId="join-title" />
      </div>
    </section>
  );
}
