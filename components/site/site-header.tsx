import { Menu } from "lucide";
import { Icon } from "@/components/ui/icon";
import { JoinWaitlistButton } from "@/components/waitlist/join-waitlist-button";
import { HEADER_LINKS } from "@/lib/content/site";
import { Logo } from "./logo";
import { PhoneMenu } from "./phone-menu";

/**
 * The top navigation on every page. On small screens the links fold into a
 * <details> menu, which works without JavaScript; PhoneMenu adds closing it
 * on a choice, on Escape and on a tap elsewhere.
 *
 * Site links are plain <a> elements, not next/link: a page change loads the
 * next static page (the framework's scripts are already cached), so no page
 * prefetches every page it links to or hydrates a component per link, and the
 * phone menu starts closed on the new page (docs/performance.md).
 *
 * One element, made once and returned by every render: a page's hydration data then carries the
 * header once, and the other places it appears (the 404 boundary that Next.js puts in every page's
 * data) refer to it. Rendered afresh each time, it was written out in full for each.
 */
export function SiteHeader() {
  return HEADER;
}

const HEADER = (
  <header className="sticky top-0 z-40 border-b border-white/10 bg-ink-950">
    <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
      <Logo />
      <nav aria-label="Main" className="hidden md:block">
        <ul className="flex items-center gap-1">
          {HEADER_LINKS.map((link) => (
            <li key={link.href}>
              <a href={link.href} className="rounded-md px-3 py-2 text-sm font-medium text-slate-300 hover:bg-white/10 hover:text-white">
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="flex items-center gap-2">
        <JoinWaitlistButton size="sm">Join Waitlist</JoinWaitlistButton>
        {/* A fixed 40 px box: a first paint before the browser has parsed the summary (a long page's
            HTML is parsed, and may be painted, in pieces) shows the same header as the whole page. */}
        <PhoneMenu className="relative size-10 shrink-0 md:hidden">
          <summary className="flex size-10 cursor-pointer list-none items-center justify-center rounded-lg text-slate-200 hover:bg-white/10 [&::-webkit-details-marker]:hidden">
            <Icon node={Menu} className="size-6" />
            <span className="sr-only">Menu</span>
          </summary>
          <nav aria-label="Mobile" className="absolute right-0 mt-2 w-56 rounded-xl border border-slate-200 bg-white p-2 shadow-xl">
            <ul>
              {HEADER_LINKS.map((link) => (
                <li key={link.href}>
                  <a href={link.href} className="block rounded-lg px-3 py-2.5 text-base font-medium text-slate-800 hover:bg-slate-100">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </PhoneMenu>
      </div>
    </div>
  </header>
);
