import type { ReactElement } from "react";
import { FOOTER_LINKS, SITE } from "@/lib/content/site";
import { Logo } from "./logo";

/**
 * The footer on every page. Like the header (./site-header.tsx), one element per year, returned by
 * every render, so a page's hydration data carries it once however many places it appears in.
 */
export function SiteFooter() {
  const year = new Date().getFullYear();
  if (made?.year !== year) made = { year, footer: footerOf(year) };
  return made.footer;
}

let made: { year: number; footer: ReactElement } | undefined;

function footerOf(year: number): ReactElement {
  return (
    <footer className="bg-ink-950 text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 sm:grid-cols-3 md:grid-cols-[2fr_1fr_1fr_1fr]">
        <div className="sm:col-span-3 md:col-span-1">
          <Logo />
          <p className="mt-4 max-w-sm text-sm leading-6 text-slate-400">
            {SITE.tagline}, from HVAC and plumbing to electrical, contracting and landscaping.
          </p>
          <p className="mt-4 text-sm text-slate-400">
            Questions?{" "}
            <a href={`mailto:${SITE.contactEmail}`} className="font-medium text-white underline-offset-4 hover:underline">
              {SITE.contactEmail}
            </a>
          </p>
        </div>
        {FOOTER_LINKS.map((group) => (
          <nav key={group.heading} aria-label={group.heading}>
            <h2 className="text-sm font-semibold text-white">{group.heading}</h2>
            <ul className="mt-4 space-y-3">
              {group.links.map((link) => (
                <li key={link.href}>
                  <a href={link.href} className="text-sm text-slate-400 hover:text-white">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-6xl px-4 py-6 text-sm text-slate-400 sm:px-6">
          © {year} {SITE.name}. Built for the trades.
        </p>
      </div>
    </footer>
  );
}
