"use client";

import { useEffect, useRef, type ReactNode } from "react";

type Props = { className?: string; children: ReactNode };

/**
 * The phone menu's <details>: it opens and closes with no JavaScript at all.
 * Once hydrated it also closes the way a menu is expected to: when one of its
 * links is chosen (an in-page link such as "Pricing" on the home page loads
 * nothing, so the menu would otherwise stay open over the section), on Escape
 * (focus goes back to the menu button), and on a tap or click anywhere else.
 *
 * The page-wide listeners stay on and ask the element whether it is open, so
 * an Escape pressed right after opening is never missed.
 */
export function PhoneMenu({ className, children }: Props) {
  const menuRef = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    const menu = menuRef.current;
    if (!menu) return;
    const closeIfOutside = (event: PointerEvent) => {
      if (menu.open && !menu.contains(event.target as Node)) menu.open = false;
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (!menu.open || event.key !== "Escape") return;
      menu.open = false;
      menu.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", closeIfOutside);
    document.addEventListener("keydown", closeOnEscape);
    return () => {
      document.removeEventListener("pointerdown", closeIfOutside);
      document.removeEventListener("keydown", closeOnEscape);
    };
  }, []);

  return (
    <details
      ref={menuRef}
      className={className}
      onClick={(event) => {
        if ((event.target as Element).closest("a")) event.currentTarget.open = false;
      }}
    >
      {children}
    </details>
  );
}
