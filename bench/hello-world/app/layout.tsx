import type { ReactNode } from "react";

export const metadata = { title: "Hello world", description: "The framework's floor: a Next.js page with nothing of ours." };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
