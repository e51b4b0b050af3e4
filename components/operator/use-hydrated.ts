"use client";

import { useSyncExternalStore } from "react";

/** For useSyncExternalStore with a value that never changes once read. */
export const noSubscription = () => () => {};

/**
 * False in the server's HTML and until the page's script has run, true after. A button whose
 * only action is script (a passkey ceremony) stays disabled until then, so a tap that comes
 * before the script is not silently lost.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
