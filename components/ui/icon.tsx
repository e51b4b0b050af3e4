import type { IconNode } from "lucide";
import { createElement } from "react";

/**
 * A Lucide icon as inline SVG, drawn where it is rendered: on the server for the
 * pages, in the dialog's own chunk for the dialog. The `lucide` package is the
 * icons' drawings as plain data. lucide-react's components are client components
 * (its Icon reads a React context), so each of the 46 icons on the home page used
 * to be a client component: its drawing went into the page twice (markup and
 * hydration data) and the browser rendered it again while hydrating.
 *
 * Every icon on the site sits beside text that says the same thing, so the icon
 * is hidden from assistive technology. Lucide's stroke settings are one rule in
 * globals.css (.lucide-icon) rather than five attributes on each of the icons,
 * which the page would carry twice: in its markup and in its hydration data.
 */
export function Icon({ node, className = "" }: { node: IconNode; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" width={24} height={24} aria-hidden="true" className={`lucide-icon ${className}`}>
      {node.map(([tag, attributes], index) => createElement(tag, { key: index, ...attributes }))}
    </svg>
  );
}
