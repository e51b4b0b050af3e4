"use client";

import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { afterLoad } from "@/lib/analytics/after-load";
import { rememberCampaign, visitStorage } from "@/lib/waitlist/source";

type WaitlistContextValue = {
  /** Opens the dialog; focus returns to `trigger` when it closes. */
  open: (trigger?: HTMLElement | null) => void;
  /** Starts loading the dialog's code before it is needed (on hover or focus of a button). */
  preload: () => void;
};

const WaitlistContext = createContext<WaitlistContextValue | null>(null);

// The form, its validation and the dialog are only needed once someone asks for
// them, so they are a separate chunk that pages do not download up front.
const loadDialog = () => import("./waitlist-dialog");
const WaitlistDialog = lazy(loadDialog);

// Visit counting (lib/analytics/beacon.ts) is a chunk of its own too, fetched after the page has loaded.
const loadBeacon = () => import("@/lib/analytics/beacon");

/**
 * Owns whether the waitlist dialog is open, for every page (spec section 2: the
 * page controls open and closed). Lives in the root layout; its state lasts as
 * long as the page (site links are full page loads, docs/performance.md).
 */
export function WaitlistProvider({ children }: { children: ReactNode }) {
  const [isOpen, setIsOpen] = useState(false);
  // Counts openings: each one gets a new security question (spec section 4).
  const [openCount, setOpenCount] = useState(0);
  const triggerRef = useRef<HTMLElement | null>(null);

  // The layout mounts once per page load: note the campaign of the URL the visit landed on.
  // Then, once the page has loaded, count the view (no cookie, nothing stored: docs/analytics.md).
  useEffect(() => {
    rememberCampaign(window.location.search, visitStorage());
    return afterLoad(() => void loadBeacon().then((beacon) => beacon.countView()));
  }, []);

  const open = useCallback((trigger?: HTMLElement | null) => {
    triggerRef.current = trigger ?? (document.activeElement as HTMLElement | null);
    setIsOpen(true);
    setOpenCount((count) => count + 1);
    void loadBeacon().then((beacon) => beacon.countStep("open"));
  }, []);

  const close = useCallback(() => {
    setIsOpen(false);
    triggerRef.current?.focus();
  }, []);

  const value = useMemo(() => ({ open, preload: () => void loadDialog() }), [open]);

  return (
    <WaitlistContext value={value}>
      {children}
      {openCount > 0 && (
        <Suspense fallback={null}>
          <WaitlistDialog isOpen={isOpen} openCount={openCount} onClose={close} />
        </Suspense>
      )}
    </WaitlistContext>
  );
}

export function useWaitlist(): WaitlistContextValue {
  const context = useContext(WaitlistContext);
  if (!context) throw new Error("useWaitlist must be used inside <WaitlistProvider>");
  return context;
}
