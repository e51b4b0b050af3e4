import { SectionHeading } from "@/components/ui/section-heading";
import { TESTIMONIALS } from "@/lib/content/testimonials";

function initialsOf(name: string): string {
  return name
    .split(" ")
    .map((part) => part[0])
    .join("");
}

export function TestimonialsSection() {
  return (
    <section id="testimonials" aria-labelledby="testimonials-title" className="bg-slate-50 py-20 sm:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="testimonials-title"
          eyebrow="Testimonials"
          title="Owners in our pilot program say it best"
          intro="A handful of shops have been running their days on early versions of the app."
        />
        <ul className="mt-14 grid gap-6 lg:grid-cols-3">
          {TESTIMONIALS.map((testimonial) => (
            <li key={testimonial.name}>
              <figure className="flex h-full flex-col rounded-2xl bg-white p-7 shadow-sm ring-1 ring-slate-200">
                <svg aria-hidden="true" viewBox="0 0 32 24" className="h-6 w-8 fill-brand-400">
                  <path d="M0 24V14.4C0 6.4 4.3 1.6 12.8 0l1.5 3.4C9.6 4.8 7.4 7.6 7.2 11.2H13V24H0zm18.4 0V14.4C18.4 6.4 22.7 1.6 31.2 0l1.5 3.4c-4.7 1.4-6.9 4.2-7.1 7.8h5.8V24H18.4z" />
                </svg>
                <blockquote className="mt-4 flex-1 leading-7 text-slate-700">
                  <p>{testimonial.quote}</p>
                </blockquote>
                <figcaption className="mt-6 flex items-center gap-3 border-t border-slate-100 pt-5">
                  <span
                    aria-hidden="true"
                    className="flex size-11 items-center justify-center rounded-full bg-ink-950 text-sm font-semibold text-white"
                  >
                    {initialsOf(testimonial.name)}
                  </span>
                  <span>
                    <span className="block font-semibold text-slate-900">{testimonial.name}</span>
                    <span className="block text-sm text-slate-600">
                      {testimonial.role}, {testimonial.company} · {testimonial.trade}
                    </span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
