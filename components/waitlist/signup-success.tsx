import { CircleCheck } from "lucide";
import type { ReactNode } from "react";
import { Icon } from "@/components/ui/icon";
import { FIGURES } from "@/lib/content/site";
import type { JoinedSummary } from "@/lib/waitlist/join-state";

type Props = {
  joined: JoinedSummary;
  titleId: string;
  /** The title is a page's h1 (the join page) or the dialog's h2. */
  level?: "h1" | "h2";
  /** What the visitor can do next. */
  children: ReactNode;
};

/** The success view (spec: "You're On The List!"), the same in the dialog and on the join page. */
export function SignupSuccess({ joined, titleId, level: Title = "h2", children }: Props) {
  return (
    <div className="py-4 text-center sm:py-8">
      <Icon node={CircleCheck} className="mx-auto size-14 text-emerald-600" />
      <Title id={titleId} tabIndex={-1} data-initial-focus className="mt-4 text-2xl font-bold text-slate-900 sm:text-3xl">
        You&apos;re On The List!
      </Title>
      {/* A long address or name is one unbroken word: it wraps inside the box instead of running past it on a phone. */}
      <p className="mx-auto mt-3 max-w-md break-words text-slate-700">
        Thanks, {joined.contact_name}. {joined.company_name} has a founding-member spot waiting. Our team will reach out within{" "}
        {FIGURES.responseHours} hours at {joined.email} to learn about your business and set up early access.
      </p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">{children}</div>
    </div>
  );
}
