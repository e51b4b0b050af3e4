import type { Metadata } from "next";
import type { ReactNode } from "react";

// Never in a search engine, never cached (server.ts adds X-Robots-Tag and no-store too).
export const metadata: Metadata = {
  title: { template: "%s | FieldCrew console", default: "FieldCrew console" },
  robots: { index: false, follow: false },
  referrer: "same-origin",
};

// Rendered per request, every page: the Content-Security-Policy's nonce (server.ts) is made per
// response, and a prerendered page's scripts would not carry it.
export const dynamic = "force-dynamic";

export default function OperatorLayout({ children }: { children: ReactNode }) {
  return children;
}
