const field = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-2.5 py-2 text-sm";
const label = "block text-sm font-medium text-slate-700";

/** One filter as a labelled select whose first choice, "Any", leaves it out of the query. */
export function FilterSelect({
  name,
  id,
  label: text,
  value,
  options,
}: {
  name: string;
  /** The select's id, when `name` is taken on the page. */
  id?: string;
  label: string;
  value?: string;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <div>
      <label htmlFor={id ?? name} className={label}>
        {text}
      </label>
      <select id={id ?? name} name={name} defaultValue={value ?? ""} key={`${name}-${value ?? ""}`} className={field}>
        <option value="">Any</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
