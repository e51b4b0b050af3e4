import type { ReactNode } from "react";
import { SiteChrome } from "@/components/site/site-chrome";

/** The public pages (/, /about, /careers, the visitor's own page); the console under /operator has its own frame. */
export default function SiteLayout({ children }: { children: ReactNode }) {
  return <SiteChrome>{children}</SiteChrome>;
}
