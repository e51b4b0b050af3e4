"use client";

import { useRouter } from "next/navigation";
import { startTransition } from "react";
import { ConsoleFrame, ConsoleHeading } from "@/components/operator/console-frame";
import { buttonClasses } from "@/components/ui/button-styles";

/**
 * A console page that could not be rendered: most often the database could not answer just then
 * (the front door answers that 503 with Retry-After: lib/site/front-door.ts). Says so and offers
 * another try, instead of the framework's blank error page. Nothing about the cause is shown:
 * production errors reach the browser as a digest only, and the log has the rest.
 */
export default function ConsoleError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  return (
    <ConsoleFrame>
      <div role="alert" className="mx-auto max-w-xl rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <ConsoleHeading title="This page could not be loaded">
          The console could not read what this page needs just now. Nothing was changed. When the site is busy this passes within seconds.
        </ConsoleHeading>
        <button
          type="button"
          className={buttonClasses("dark", "md")}
          onClick={() =>
            startTransition(() => {
              router.refresh();
              reset();
            })
          }
        >
          Try again
        </button>
      </div>
    </ConsoleFrame>
  );
}
