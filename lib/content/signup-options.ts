/**
 * The choices the waitlist form offers (spec section 3). The values are what the
 * API accepts and the database stores; the labels are what visitors read.
 */
export const BUSINESS_TYPES = [
  { value: "hvac", label: "HVAC" },
  { value: "plumbing", label: "Plumbing" },
  { value: "electrical", label: "Electrical" },
  { value: "general_contractor", label: "General Contractor" },
  { value: "landscaping", label: "Landscaping" },
  { value: "other", label: "Other" },
] as const;

export const COMPANY_SIZES = [
  { value: "1-5", label: "1-5 employees" },
  { value: "6-10", label: "6-10 employees" },
  { value: "11-25", label: "11-25 employees" },
  { value: "26-50", label: "26-50 employees" },
  { value: "50+", label: "50+ employees" },
] as const;

export type BusinessType = (typeof BUSINESS_TYPES)[number]["value"];
export type CompanySize = (typeof COMPANY_SIZES)[number]["value"];

type ValuesOf<T extends readonly { value: string }[]> = { [K in keyof T]: T[K]["value"] };

function valuesOf<const T extends readonly { value: string }[]>(options: T): ValuesOf<T> {
  return options.map((option) => option.value) as ValuesOf<T>;
}

export const BUSINESS_TYPE_VALUES = valuesOf(BUSINESS_TYPES);
export const COMPANY_SIZE_VALUES = valuesOf(COMPANY_SIZES);
