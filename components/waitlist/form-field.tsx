import type { ReactNode } from "react";

export const controlClasses =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:outline-2 focus:outline-offset-0 focus:outline-brand-400 aria-invalid:border-red-600 aria-invalid:focus:outline-red-300";

type Props = {
  id: string;
  label: string;
  error?: string;
  optional?: boolean;
  className?: string;
  /** Renders the control, given the attributes that tie it to its label and error. */
  children: (control: { id: string; "aria-invalid": boolean; "aria-describedby"?: string }) => ReactNode;
};

/** A visible label, the control, and its error, announced through aria-describedby. */
export function FormField({ id, label, error, optional, className = "", children }: Props) {
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-900">
        {label}
        {optional && <span className="font-normal text-slate-600"> (optional)</span>}
      </label>
      {children({ id, "aria-invalid": !!error, "aria-describedby": errorId })}
      {error && (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
