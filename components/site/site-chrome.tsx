import type { ReactNode } from "react";
import { WaitlistProvider } from "@/components/waitlist/waitlist-provider";
import { VISIT_PATH } from "@/lib/content/paths";
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
      {/* A visit without JavaScript is counted by this image (lib/analytics/handler.ts); with it, the beacon counts it. */}
      <noscript>
        {/* eslint-disable-next-line @next/next/no-img-element -- a counting pixel, not content to optimise */}
        <img src={VISIT_PATH} alt="" width={1} height={1} className="absolute h-px w-px opacity-0" />
      </noscript>
    </WaitlistProvider>
  );
}
