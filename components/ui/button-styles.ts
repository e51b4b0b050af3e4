/**
 * Class names for the site's buttons and button-like links, shared by server
 * and client components so every call to action looks the same.
 */
const base =
  "inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60";

const variants = {
  // Dark text on the brand orange keeps 4.5:1 contrast at any size.
  primary: "bg-brand-400 text-ink-950 hover:bg-brand-300 focus-visible:outline-brand-400",
  dark: "bg-ink-950 text-white hover:bg-slate-800 focus-visible:outline-ink-950",
  outline: "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 focus-visible:outline-brand-500",
  ghostOnDark: "border border-white/25 text-white hover:bg-white/10 focus-visible:outline-white",
  // For what cannot be undone (leaving the waitlist); red-800 on white is 7:1.
  danger: "border border-red-300 bg-white text-red-800 hover:bg-red-50 focus-visible:outline-red-700",
} as const;

const sizes = {
  sm: "px-3.5 py-2 text-sm",
  md: "px-5 py-2.5 text-base",
  lg: "px-6 py-3.5 text-base sm:text-lg",
} as const;

export type ButtonVariant = keyof typeof variants;
export type ButtonSize = keyof typeof sizes;

export function buttonClasses(variant: ButtonVariant = "primary", size: ButtonSize = "md", extra = ""): string {
  return `${base} ${variants[variant]} ${sizes[size]} ${extra}`.trim();
}
