import type { ReactNode } from "react";

/**
 * A list item with a check mark: the feature points, the plans' features, a role's lists. The mark
 * is the item's ::before (globals.css, .check-item), not an icon element in each item: a page
 * carries its markup twice (the HTML and the hydration data), and the home page's 26 marks and the
 * careers page's 38 were 10-15 KB of it, read after the first paint (docs/performance.md, issue 41).
 */
export function CheckItem({ children, onDark = false }: { children: ReactNode; onDark?: boolean }) {
  return <li className={`check-item flex gap-2 text-sm ${onDark ? "check-item-on-dark text-slate-200" : "text-slate-700"}`}>{children}</li>;
}
