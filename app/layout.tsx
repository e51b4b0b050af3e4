import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { SITE } from "@/lib/content/site";
import { parseEnv } from "@/lib/env";
import "./globals.css";

// Site-wide defaults only: each page sets its own title, canonical URL and Open
// Graph tags (lib/metadata.ts), so the 404 page does not claim to be the home page.
export const metadata: Metadata = {
  metadataBase: new URL(parseEnv().SITE_URL),
  applicationName: SITE.name,
  title: SITE.name,
  description: SITE.description,
};

export const viewport: Viewport = { themeColor: "#0b1220" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-slate-900 focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
        >
          Skip to content
        </a>
        {/* The frame is the section's: the public site's (app/(site)/layout.tsx) or the console's (app/operator/). */}
        {children}
      </body>
    </html>
  );
}
