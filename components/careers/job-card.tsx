import { CheckItem } from "@/components/ui/check-item";
import { salaryText, type Job } from "@/lib/content/careers";

export function JobCard({ job }: { job: Job }) {
  const titleId = `job-${job.id}`;
  const facts = [
    // Each fact's Lucide icon, drawn by the stylesheet as the item's ::before (.icon-before in globals.css).
    { label: "Department", value: job.department, icon: "icon-briefcase" },
    { label: "Location", value: job.location, icon: "icon-map-pin" },
    { label: "Type", value: job.type, icon: "icon-clock" },
    { label: "Salary", value: salaryText(job.salary), icon: "icon-wallet" },
  ];
  return (
    <article aria-labelledby={titleId} className="rounded-2xl bg-white p-6 ring-1 ring-slate-200 sm:p-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h3 id={titleId} className="text-xl font-bold text-slate-900">
            {job.title}
          </h3>
          <ul className="mt-3 flex flex-wrap gap-x-5 gap-y-2 text-sm text-slate-700">
            {facts.map(({ label, value, icon }) => (
              <li
                key={label}
                className={`icon-before ${icon} flex items-center gap-1.5 before:size-4 before:text-slate-500 ${label === "Salary" ? "font-semibold text-slate-900" : ""}`}
              >
                <span className="sr-only">{label}: </span>
                {value}
              </li>
            ))}
          </ul>
        </div>
        {/* Applications are not open yet (spec section 2). */}
        <button
          type="button"
          disabled
          className="shrink-0 cursor-not-allowed rounded-lg bg-slate-100 px-5 py-2.5 font-semibold text-slate-600 ring-1 ring-slate-200"
        >
          Coming Soon
        </button>
      </div>
      <p className="mt-5 leading-7 text-slate-700">{job.description}</p>
      <div className="mt-6 grid gap-6 md:grid-cols-2">
        <List title="What you'll bring" items={job.requirements} />
        <List title="What we offer" items={job.benefits} />
      </div>
    </article>
  );
}

function List({ title, items }: { title: string; items: readonly string[] }) {
  return (
    <div>
      <h4 className="text-sm font-semibold text-slate-900">{title}</h4>
      <ul className="mt-3 space-y-2">
        {items.map((item) => (
          <CheckItem key={item}>{item}</CheckItem>
        ))}
      </ul>
    </div>
  );
}
