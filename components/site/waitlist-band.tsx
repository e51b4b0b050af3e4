import { JoinWaitlistButton } from "@/components/waitlist/join-waitlist-button";
import { FIGURES } from "@/lib/content/site";

type Props = { title: string; text: string };

/** A call to action that closes the inner pages. */
export function WaitlistBand({ title, text }: Props) {
  return (
    <section aria-labelledby="waitlist-band-title" className="bg-white py-16 sm:py-20">
      <div className="mx-auto max-w-5xl px-4 sm:px-6">
        <div className="flex flex-col items-start gap-6 rounded-3xl bg-brand-50 p-8 ring-1 ring-brand-100 sm:p-12 md:flex-row md:items-center md:justify-between">
          <div className="max-w-xl">
            <h2 id="waitlist-band-title" className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
              {title}
            </h2>
            <p className="mt-3 text-slate-700">
              {text} Founding members get {FIGURES.foundingDiscount} off for life.
            </p>
          </div>
          <JoinWaitlistButton variant="dark" size="lg" className="shrink-0">
            Join the Waitlist
          </JoinWaitlistButton>
        </div>
      </div>
    </section>
  );
}
