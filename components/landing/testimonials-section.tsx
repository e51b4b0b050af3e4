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
              {/* The opening quote mark is the figure's ::before (globals.css, .quote-mark). */}
              <figure className="quote-mark flex h-full flex-col rounded-2xl bg-white p-7 shadow-sm ring-1 ring-slate-200">
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
