type Props = {
  id?: string;
  eyebrow: string;
  title: string;
  intro?: string;
  tone?: "light" | "dark";
  align?: "center" | "left";
};

/** The eyebrow, heading and introduction that open each section. */
export function SectionHeading({ id, eyebrow, title, intro, tone = "light", align = "center" }: Props) {
  const dark = tone === "dark";
  return (
    <div className={align === "center" ? "mx-auto max-w-2xl text-center" : "max-w-2xl"}>
      <p className={`text-sm font-semibold tracking-wide uppercase ${dark ? "text-brand-300" : "text-brand-700"}`}>{eyebrow}</p>
      <h2 id={id} className={`mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl ${dark ? "text-white" : "text-slate-900"}`}>
        {title}
      </h2>
      {intro && <p className={`mt-4 text-lg leading-8 text-pretty ${dark ? "text-slate-300" : "text-slate-600"}`}>{intro}</p>}
    </div>
  );
}
