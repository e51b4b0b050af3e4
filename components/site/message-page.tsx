import type { ReactNode } from "react";
import { buttonClasses } from "@/components/ui/button-styles";

type Props = {
  eyebrow: string;
  title: string;
  /** The explanation under the title. */
  children: ReactNode;
  /** Announced to screen readers when it changes (after an action), rather than read as plain text. */
  isStatus?: boolean;
  /** What follows the way home: more links, say. */
  footer?: ReactNode;
  /** The page's one action (a form's button), beside the way home, which then steps back. */
  action?: ReactNode;
};

/** A short page that says one thing and leads home: the 404, a refused link, a removed entry. */
export function MessagePage({ eyebrow, title, children, isStatus = false, footer, action }: Props) {
  return (
    <section aria-labelledby="message-title" className="bg-slate-50 py-24 sm:py-32">
      <div className="mx-auto max-w-xl px-4 text-center sm:px-6">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{eyebrow}</p>
        <h1 id="message-title" className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          {title}
        </h1>
        <p role={isStatus ? "status" : undefined} className="mt-4 text-lg text-slate-600">
          {children}
        </p>
        <div className="mt-8 flex flex-wrap items-center justify-center gap-3">
          {action}
          <a href="/" className={buttonClasses(action ? "outline" : "dark", "lg")}>
            Back to the home page
          </a>
        </div>
        {footer}
      </div>
    </section>
  );
}
