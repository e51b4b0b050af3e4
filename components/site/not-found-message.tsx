import { MessagePage } from "@/components/site/message-page";
import { HEADER_LINKS } from "@/lib/content/site";

/**
 * What a page that is not here says, with the ways on (app/not-found.tsx, app/(site)/not-found.tsx).
 *
 * One element, made once and returned by every render, as the header and footer are
 * (./site-header.tsx): Next.js puts both 404 boundaries in every page's hydration data, and the
 * second then refers to the first instead of spelling the message out again (2.1 KB, issue 41).
 */
export function NotFoundMessage() {
  return MESSAGE;
}

// MessagePage called, not rendered as <MessagePage>: React writes a component's output afresh
// wherever it renders it, but refers back to an element (the <section> this returns) it has
// already written.
const MESSAGE = MessagePage({
  eyebrow: "404",
  title: "We couldn't find that page",
  footer: (
    <nav aria-label="Popular pages" className="mt-10">
      <ul className="flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm font-medium">
        {HEADER_LINKS.map((link) => (
          <li key={link.href}>
            <a href={link.href} className="text-slate-700 underline-offset-4 hover:text-slate-900 hover:underline">
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  ),
  children: "The link may be old or mistyped. Everything about FieldCrew is a click away from the home page.",
});
