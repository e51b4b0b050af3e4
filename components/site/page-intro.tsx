import { BrandGlow } from "@/components/ui/brand-glow";

type Props = { eyebrow: string; title: string; intro: string };

/** The dark banner that opens the inner pages, matching the home page's hero. */
export function PageIntro({ eyebrow, title, intro }: Props) {
  return (
    <section aria-labelledby="page-title" className="relative overflow-hidden bg-ink-950 text-white">
      <BrandGlow />
      <div className="relative mx-auto max-w-4xl px-4 py-16 text-center sm:px-6 sm:py-24">
        <p className="text-sm font-semibold tracking-wide text-brand-300 uppercase">{eyebrow}</p>
        <h1 id="page-title" className="mt-3 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">
          {title}
        </h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg leading-8 text-pretty text-slate-300">{intro}</p>
      </div>
    </section>
  );
}
