import type { InputHTMLAttributes } from "react";
import { BUSINESS_TYPES, COMPANY_SIZES } from "@/lib/content/signup-options";
import type { FieldErrors, WaitlistField } from "@/lib/waitlist/schema";
import { EmailField } from "./email-field";
import { controlClasses, FormField } from "./form-field";

/** The fields in the order the form shows them: the first refused one is where the focus goes. */
const SHOWN_FIELDS: readonly WaitlistField[] = ["company_name", "contact_name", "email", "phone", "business_type", "company_size", "notes"];

/** The first of `errors`' fields in the order shown, if any. */
export function firstRefusedField(errors: FieldErrors | undefined): WaitlistField | undefined {
  return SHOWN_FIELDS.find((name) => errors?.[name]);
}

type Props = {
  /** The id of each field's control, unique on the page. */
  idOf: (name: WaitlistField) => string;
  errors: FieldErrors;
  /** What each field starts with (the join page keeps what was typed across a refused post). */
  values?: Partial<Record<WaitlistField, string>>;
  /** The visitor changed a field, so its error no longer applies. */
  onEdit?: (name: WaitlistField) => void;
  /** The field that takes the focus when the page loads (the first one refused). */
  autoFocusField?: WaitlistField;
};

/**
 * The sign-up's visible fields, in the spec's order, with labels and errors: the one set the
 * dialog and the join page both show.
 */
export function SignupFields({ idOf, errors, values = {}, onEdit, autoFocusField }: Props) {
  const common = (name: WaitlistField) => ({
    name,
    defaultValue: values[name],
    autoFocus: autoFocusField === name,
    onInput: onEdit && (() => onEdit(name)),
  });
  const text = (name: WaitlistField, label: string, props: InputHTMLAttributes<HTMLInputElement>) => (
    <FormField id={idOf(name)} label={label} error={errors[name]}>
      {(control) => <input {...control} {...props} {...common(name)} required className={controlClasses} />}
    </FormField>
  );
  const select = (name: WaitlistField, label: string, options: readonly { value: string; label: string }[]) => (
    <FormField id={idOf(name)} label={label} error={errors[name]}>
      {(control) => (
        <select {...control} {...common(name)} defaultValue={values[name] ?? ""} required className={controlClasses}>
          <option value="" disabled>
            Select…
          </option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {text("company_name", "Company name", { autoComplete: "organization" })}
      {text("contact_name", "Your name", { autoComplete: "name" })}
      <EmailField
        id={idOf("email")}
        error={errors.email}
        defaultValue={values.email}
        autoFocus={autoFocusField === "email"}
        onEdit={() => onEdit?.("email")}
      />
      {text("phone", "Phone", { type: "tel", autoComplete: "tel" })}
      {select("business_type", "Business type", BUSINESS_TYPES)}
      {select("company_size", "Company size", COMPANY_SIZES)}
      <FormField id={idOf("notes")} label="Notes" optional error={errors.notes} className="sm:col-span-2">
        {(control) => (
          <textarea
            {...control}
            {...common("notes")}
            rows={3}
            placeholder="What's slowing your business down today?"
            className={controlClasses}
          />
        )}
      </FormField>
    </div>
  );
}
