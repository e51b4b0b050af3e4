import type { ReactNode } from "react";
import { WaitlistProvider } from "@/components/waitlist/waitlist-provider";
import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";

/** The public site's frame: header, main, footer, and the waitlist dialog every page can open. */
export function SiteChrome({ children }: { children: ReactNode }) {
  return (
    <WaitlistProvider>
      <SiteHeader />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <SiteFooter />
    </WaitlistProvider>
  );
}
