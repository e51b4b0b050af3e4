import type { ReactNode } from "react";
import { requireOperator } from "@/lib/auth/session";

/**
 * Every console page is behind this: without a valid session the visitor is sent
 * to the sign-in page before any page below reads a row. Each page also calls
 * requireOperator itself (a layout does not re-run on every navigation, and a
 * page must not depend on that); within one request the two share one lookup.
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  await requireOperator();
  return children;
}
