import { cookies } from "next/headers";
import type { ReactNode } from "react";
import { TimeZoneCookie } from "@/components/operator/time-zone-cookie";
import { requireOperator } from "@/lib/auth/session";
import { TIME_ZONE_COOKIE } from "@/lib/console/time-zone";

/**
 * Every console page is behind this: without a valid session the visitor is sent
 * to the sign-in page before any page below reads a row. Each page also calls
 * requireOperator itself (a layout does not re-run on every navigation, and a
 * page must not depend on that); within one request the two share one lookup.
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  await requireOperator();
  const known = (await cookies()).get(TIME_ZONE_COOKIE)?.value;
  return (
    <>
      {children}
      <TimeZoneCookie cookieName={TIME_ZONE_COOKIE} known={known === undefined ? undefined : decodeURIComponent(known)} />
    </>
  );
}
