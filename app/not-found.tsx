import type { Metadata } from "next";
import { buttonClasses } from "@/components/ui/button-styles";
import { HEADER_LINKS } from "@/lib/content/site";

export const metadata: Metadata = {
  title: { absolute: "Page not found | FieldCrew" },
  robots: { index: false },
};

export default function NotFound() {
  return (
    <section aria-labelledby="not-found-title" className="bg-slate-50 py-24 sm:py-32">
      <div className="mx-auto max-w-xl px-4 text-center sm:px-6">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">404</p>
        <h1 id="not-found-title" className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          We couldn&apos;t find that page
        </h1>
        <p className="mt-4 text-lg text-slate-600">
          The link may be old or mistyped. Everything about FieldCrew is a click away from the home page.
        </p>
        <div className="mt-8">
          <a href="/" className={buttonClasses("dark", "lg")}>
            Back to the home page
          </a>
        </div>
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
      </div>
    </section>
  );
}
