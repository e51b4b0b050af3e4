"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Tells the console the browser's time zone (a cookie only console pages read), and
 * shows the page again in it the first time it is learnt or when it changes. An
 * operator can choose a zone of their own on the account page instead.
 */
export function TimeZoneCookie({ cookieName, known }: { cookieName: string; known: string | undefined }) {
  const router = useRouter();
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!zone || zone === known) return;
    document.cookie = `${cookieName}=${encodeURIComponent(zone)}; Path=/operator; Max-Age=31536000; SameSite=Lax${location.protocol === "https:" ? "; Secure" : ""}`;
    router.refresh();
  }, [cookieName, known, router]);
  return null;
}
