"use client";

import { useSyncExternalStore, type MouseEvent, type ReactNode } from "react";
import { buttonClasses, type ButtonSize, type ButtonVariant } from "@/components/ui/button-styles";
import { JOIN_PATH } from "@/lib/content/paths";
import { useWaitlist } from "./waitlist-provider";

type Props = {
  children?: ReactNode;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
};

/** A click the browser should handle itself: a new tab or window, a download. */
function opensElsewhere(event: MouseEvent): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}

const noChanges = () => () => {};

/**
 * Any "Join Waitlist" call to action: a real link to the join page, which works with no
 * script at all; once the page's script runs, a plain click opens the one waitlist dialog instead.
 */
export function JoinWaitlistButton({ children = "Join Waitlist", variant = "primary", size = "md", className = "" }: Props) {
  const { open, preload } = useWaitlist();
  // Says "opens a dialog" only once it does (after hydration); before that it is a link to a page.
  const opensDialog = useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );
  return (
    <a
      href={JOIN_PATH}
      aria-haspopup={opensDialog ? "dialog" : undefined}
      className={buttonClasses(variant, size, className)}
      onClick={(event) => {
        if (opensElsewhere(event)) return;
        event.preventDefault();
        open(event.currentTarget);
      }}
      onPointerEnter={preload}
      onFocus={preload}
    >
      {children}
    </a>
  );
}
