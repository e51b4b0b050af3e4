import { SITE } from "@/lib/content/site";

/** The wordmark, linking home. */
export function Logo({ tone = "light" }: { tone?: "light" | "dark" }) {
  return (
    <a href="/" className="flex items-center gap-2 rounded-md text-lg font-bold tracking-tight">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 shrink-0">
        <rect width="32" height="32" rx="8" className="fill-brand-400" />
        <path d="M9 23V9h12v3.5h-8v2.5h6.5v3.5H13V23z" className="fill-ink-950" />
        <circle cx="22.5" cy="21.5" r="2.5" className="fill-ink-950" />
      </svg>
      <span className={tone === "light" ? "text-white" : "text-slate-900"}>{SITE.name}</span>
    </a>
  );
}
