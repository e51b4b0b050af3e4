/**
 * Every field of a sign-up, once: where it is stored, what people call it, and
 * where it is shown. The schema (./schema.ts) says what a valid value is; this
 * says what becomes of it. The store's insert, the record the webhook and the
 * operator's export carry, the operator's list, the confirmation email and the
 * visitor's own page are all built from this table, and the compiler refuses
 * it until a field the schema gains has its row here: a new field cannot be
 * skipped silently, only left out on purpose.
 *
 * Browser-safe (data and types only), though today only the server reads it.
 */
import { timestamp } from "../time";
import type { WaitlistEntry } from "../generated/prisma/client";
import { BUSINESS_TYPES, COMPANY_SIZES } from "../content/signup-options";
import type { WaitlistSignup } from "./schema";

type SignupField = keyof WaitlistSignup;

type Option = { readonly value: string; readonly label: string };

/** A column of the operator's list: its title, its width in characters. */
export type ListColumn = {
  title: string;
  width: number;
  /** The stored value, when it is shorter than the label and as clear. */ storedValue?: true;
};

type FieldDefinition = {
  /** The WaitlistEntry property that stores it (its column is the field's own name, @map in prisma/schema.prisma). */
  column: keyof WaitlistEntry;
  /** Its name as people read it. */
  label: string;
  /** A fixed choice: its options, so people read the option's label, not the stored value. */
  options?: readonly Option[];
  /** In the confirmation email's "What you registered": only fixed choices (see company_name below). */
  inEmail: boolean;
  /** On the visitor's own page (lib/waitlist/visitor-entry.ts). */
  onVisitorPage: boolean;
  /**
   * A column of `npm run waitlist -- list`, whose table must fit a terminal; null
   * leaves it to `export`, which carries every field.
   */
  listColumn: ListColumn | null;
};

/**
 * In the order exports, the webhook and the pages show them. The choices made
 * for each field (and why) are in docs/architecture.md, "The fields of a sign-up".
 */
export const SIGNUP_FIELDS = {
  // Nothing the visitor typed goes in an email to an unconfirmed address: the form would mail
  // anyone's words to any address typed into it. Only the fixed choices, in our words.
  company_name: {
    column: "companyName",
    label: "Company",
    inEmail: false,
    onVisitorPage: true,
    listColumn: { title: "Company", width: 24 },
  },
  contact_name: { column: "contactName", label: "Name", inEmail: false, onVisitorPage: true, listColumn: { title: "Contact", width: 18 } },
  email: { column: "email", label: "Email", inEmail: false, onVisitorPage: true, listColumn: { title: "Email", width: 28 } },
  phone: { column: "phone", label: "Phone", inEmail: false, onVisitorPage: true, listColumn: { title: "Phone", width: 17 } },
  business_type: {
    column: "businessType",
    label: "Business type",
    options: BUSINESS_TYPES,
    inEmail: true,
    onVisitorPage: true,
    listColumn: { title: "Type", width: 18 },
  },
  company_size: {
    column: "companySize",
    label: "Company size",
    options: COMPANY_SIZES,
    inEmail: true,
    onVisitorPage: true,
    // "6-10" fits the narrow column; " employees" adds nothing there.
    listColumn: { title: "Size", width: 5, storedValue: true },
  },
  // Free text of any length: in the export, not in a one-line table.
  notes: { column: "notes", label: "Notes", inEmail: false, onVisitorPage: true, listColumn: null },
  // Where the sign-up came from (the list shows them together as "Source"). The visitor's page
  // shows all we keep about them, these included when there are any.
  source_page: { column: "sourcePage", label: "Joined from page", inEmail: false, onVisitorPage: true, listColumn: null },
  utm_source: { column: "utmSource", label: "Campaign source", inEmail: false, onVisitorPage: true, listColumn: null },
  utm_medium: { column: "utmMedium", label: "Campaign medium", inEmail: false, onVisitorPage: true, listColumn: null },
  utm_campaign: { column: "utmCampaign", label: "Campaign", inEmail: false, onVisitorPage: true, listColumn: null },
} as const satisfies { [F in SignupField]: FieldDefinition };

/** The fields' names, in SIGNUP_FIELDS's order. */
export const SIGNUP_FIELD_NAMES = Object.keys(SIGNUP_FIELDS) as SignupField[];

/** A value as people read it: a choice's label ("6-10 employees"), anything else as it is. */
export function displayValue(field: SignupField, value: string | null): string {
  const definition: FieldDefinition = SIGNUP_FIELDS[field];
  if (value === null) return "";
  return definition.options?.find((option) => option.value === value)?.label ?? value;
}

/** The fields shown in a place, as [label, value as people read it] in order; an optional field left blank is not shown. */
export function shownFields(signup: WaitlistSignup, where: "inEmail" | "onVisitorPage"): [label: string, value: string][] {
  return SIGNUP_FIELD_NAMES.filter((field) => SIGNUP_FIELDS[field][where] && signup[field] != null).map((field) => [
    SIGNUP_FIELDS[field].label,
    displayValue(field, signup[field]),
  ]);
}

/**
 * The sign-up an entry holds, read through SIGNUP_FIELDS's columns. The casts
 * are the store's promise: only schema-checked values are written there.
 */
export function signupOf(entry: WaitlistEntry): WaitlistSignup {
  return Object.fromEntries(SIGNUP_FIELD_NAMES.map((field) => [field, entry[SIGNUP_FIELDS[field].column]])) as WaitlistSignup;
}

/** A stored sign-up as operators and the webhook see it: every field of the sign-up, its id and when it came. */
export type EntryRecord = { id: number; created_at: string } & WaitlistSignup;

/** The public record of an entry read through Prisma Client. */
export function entryRecord(entry: WaitlistEntry): EntryRecord {
  return { id: entry.id, created_at: timestamp(entry.createdAt), ...signupOf(entry) };
}
