import type { ReactNode } from "react";
import { Logo } from "@/components/site/logo";
import { buttonClasses } from "@/components/ui/button-styles";

const CONSOLE_LINKS = [
  { href: "/operator", label: "Queue" },
  { href: "/operator/overview", label: "Overview" },
  { href: "/operator/campaigns", label: "Campaigns" },
  { href: "/operator/entries", label: "Entries" },
  { href: "/operator/invitation", label: "Invitation" },
  { href: "/operator/updates", label: "Updates" },
  { href: "/operator/audit", label: "Audit log", adminOnly: true },
  { href: "/operator/operators", label: "Operators", adminOnly: true },
  { href: "/operator/account", label: "Account" },
] as const;

/**
 * The console's frame: the site's dark header with the console's own links (when signed in;
 * an admin's pages only for an admin) and sign-out.
 */
export function ConsoleFrame({
  operatorEmail,
  role,
  current,
  children,
}: {
  operatorEmail?: string;
  role?: string;
  current?: string;
  children: ReactNode;
}) {
  const links = CONSOLE_LINKS.filter((link) => !("adminOnly" in link) || role === "admin");
  return (
    <>
      <header className="border-b border-white/10 bg-ink-950">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3 sm:px-6">
          <div className="flex items-center gap-3">
            <Logo />
            <span className="rounded-md bg-white/10 px-2 py-0.5 text-xs font-semibold tracking-wide text-slate-200 uppercase">Console</span>
          </div>
          {operatorEmail && (
            <form method="post" action="/api/operator/sign-out" className="flex items-center gap-3">
              <span className="hidden text-sm text-slate-300 sm:inline">{operatorEmail}</span>
              <button type="submit" className={buttonClasses("ghostOnDark", "sm")}>
                Sign out
              </button>
            </form>
          )}
        </div>
        {operatorEmail && (
          <nav aria-label="Console" className="mx-auto max-w-6xl overflow-x-auto px-2 sm:px-4">
            <ul className="flex gap-1">
              {links.map((link) => (
                <li key={link.href}>
                  <a
                    href={link.href}
                    aria-current={current === link.href ? "page" : undefined}
                    className="block border-b-2 border-transparent px-3 py-2.5 text-sm font-medium whitespace-nowrap text-slate-300 hover:text-white aria-[current=page]:border-brand-400 aria-[current=page]:text-white"
                  >
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </header>
      <main id="main" tabIndex={-1} className="flex-1 bg-slate-50 focus:outline-none">
        <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6">{children}</div>
      </main>
    </>
  );
}

/** A page's heading and a line under it. */
export function ConsoleHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
      {children && <p className="mt-1 text-slate-600">{children}</p>}
    </div>
  );
}

/** A titled panel of a console page: a white card whose heading names it for assistive technology. */
export function ConsoleSection({
  id,
  title,
  className = "",
  children,
}: {
  id: string;
  title: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={`rounded-xl border border-slate-200 bg-white p-4 sm:p-6 ${className}`.trim()}>
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** One figure of a console page's row of figures: a label, the number, and a note under it. */
export function ConsoleFigure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-bold text-slate-900 tabular-nums">{value}</dd>
      {note && <dd className="text-xs text-slate-500">{note}</dd>}
    </div>
  );
}
