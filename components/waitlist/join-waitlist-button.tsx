"use client";

import type { ReactNode } from "react";
import { buttonClasses, type ButtonSize, type ButtonVariant } from "@/components/ui/button-styles";
import { useWaitlist } from "./waitlist-provider";

type Props = {
  children?: ReactNode;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
};

/** Any "Join Waitlist" call to action: opens the one waitlist dialog. */
export function JoinWaitlistButton({ children = "Join Waitlist", variant = "primary", size = "md", className = "" }: Props) {
  const { open, preload } = useWaitlist();
  return (
    <button
      type="button"
      aria-haspopup="dialog"
      className={buttonClasses(variant, size, className)}
      onClick={(event) => open(event.currentTarget)}
      onPointerEnter={preload}
      onFocus={preload}
    >
      {children}
    </button>
  );
}
