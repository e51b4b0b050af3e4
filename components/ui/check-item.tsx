import { Check } from "lucide";
import type { ReactNode } from "react";
import { Icon } from "./icon";

/** A list item with a check mark: the feature points, the plans' features, a role's lists. */
export function CheckItem({ children, onDark = false }: { children: ReactNode; onDark?: boolean }) {
  return (
    <li className={`flex gap-2 text-sm ${onDark ? "text-slate-200" : "text-slate-700"}`}>
      <Icon node={Check} className={`mt-0.5 size-4 shrink-0 ${onDark ? "text-brand-400" : "text-brand-700"}`} />
      {children}
    </li>
  );
}
