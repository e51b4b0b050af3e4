/**
 * The one definition of a valid waitlist sign-up. The route handler parses
 * requests with it, the browser form checks fields with it before sending, and
 * the tests exercise it directly, so the three can never disagree.
 */
import { z } from "zod";
import { HONEYPOT_FIELD, SOURCE_FIELDS } from "./form-names";
import { LIMITS } from "./limits";

export { HONEYPOT_FIELD, SOURCE_FIELDS };
import { BUSINESS_TYPE_VALUES, COMPANY_SIZE_VALUES } from "../content/signup-options";

export { LIMITS };

// In the browser, zod would probe `new Function` to compile faster parsers. The
// site's Content-Security-Policy forbids eval, so the probe would be reported as
// a violation; the form's few fields do not need the speed. This must run before
// the first z.object() below, which decides at creation. The server keeps the JIT.
if (typeof window !== "undefined") z.config({ jitless: true });

/** Digits, spaces and the punctuation people write phone numbers with. */
const PHONE_CHARACTERS = /^[0-9+\-.() ]+$/;

function requiredText(field: string, max: number) {
  return z
    .string({ error: `Enter your ${field}.` })
    .trim()
    .min(1, { error: `Enter your ${field}.` })
    .max(max, { error: `Your ${field} must be ${max.toLocaleString("en-US")} characters or fewer.` });
}

/** Optional tracking text: trimmed, blank or missing stored as NULL. */
function optionalText(description: string, max: number) {
  return z
    .string({ error: `${description} must be text.` })
    .trim()
    .max(max, { error: `${description} must be ${max} characters or fewer.` })
    .nullish()
    .transform((value) => value || null);
}

function choice<const T extends readonly [string, ...string[]]>(values: T, field: string) {
  return z.enum(values, { error: `Choose your ${field}.` });
}

export const waitlistSignupSchema = z.object({
  company_name: requiredText("company name", LIMITS.name),
  contact_name: requiredText("name", LIMITS.name),
  email: requiredText("email address", LIMITS.email).pipe(z.email({ error: "Enter a valid email address, like owner@example.com." })),
  phone: requiredText("phone number", LIMITS.phone)
    .regex(PHONE_CHARACTERS, { error: "Use only digits, spaces and + - . ( ) in your phone number." })
    .refine(
      (phone) => {
        const digits = phone.replace(/\D/g, "").length;
        return digits >= LIMITS.phoneDigitsMin && digits <= LIMITS.phoneDigitsMax;
      },
      { error: `Enter a phone number with ${LIMITS.phoneDigitsMin} to ${LIMITS.phoneDigitsMax} digits.` },
    ),
  business_type: choice(BUSINESS_TYPE_VALUES, "business type"),
  company_size: choice(COMPANY_SIZE_VALUES, "company size"),
  notes: z
    .string({ error: "Notes must be text." })
    .trim()
    .max(LIMITS.notes, { error: `Notes must be ${LIMITS.notes.toLocaleString("en-US")} characters or fewer.` })
    .nullish()
    // Blank notes are stored as no notes.
    .transform((notes) => notes || null),
  // Where the sign-up came from (docs/api.md). The dialog fills these in; people never see them.
  source_page: optionalText("The source page", LIMITS.sourcePage).refine((page) => page === null || page.startsWith("/"), {
    error: "The source page must be a path on this site, like /careers.",
  }),
  utm_source: optionalText("utm_source", LIMITS.utm),
  utm_medium: optionalText("utm_medium", LIMITS.utm),
  utm_campaign: optionalText("utm_campaign", LIMITS.utm),
});

/**
 * The fields a visitor types freely (every field but the fixed choices): what the
 * log must never carry (lib/waitlist/sign-up.ts cuts them out of error text).
 * Derived from the schema, so a new text field is covered without a list to update.
 */
export const FREE_TEXT_FIELDS = Object.entries(waitlistSignupSchema.shape)
  .filter(([, field]) => !(field instanceof z.ZodEnum))
  .map(([name]) => name as keyof z.output<typeof waitlistSignupSchema>);

export type SignupSource = { [K in (typeof SOURCE_FIELDS)[number]]: string | null };

/** What the form posts: the sign-up, the answered security question and the honeypot. */
export type SignupRequestBody = WaitlistSignup & {
  challenge_token: string;
  challenge_answer: string;
  [HONEYPOT_FIELD]: string;
};

export type WaitlistSignupInput = z.input<typeof waitlistSignupSchema>;
export type WaitlistSignup = z.output<typeof waitlistSignupSchema>;
export type WaitlistField = keyof WaitlistSignupInput;
export type FieldErrors = Partial<Record<WaitlistField, string>>;

/** Gmail's two domains, one mailbox: a.b@googlemail.com is ab@gmail.com. */
const GMAIL_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * The identity of a sign-up: the mailbox, whatever the spelling. Lower-cased,
 * a `+tag` cut (for every domain: most providers deliver `anna+launch@` to
 * `anna@`), and for Gmail the dots in the local part dropped and googlemail.com
 * read as gmail.com. So `Anna.Smith+launch@gmail.com`, `annasmith@gmail.com` and
 * `a.nna.smith@googlemail.com` are one entry. The address is still stored and
 * mailed as typed. The migration 20261123120000_canonical_mailbox applies the
 * same rule in SQL to rows stored before it; tests/waitlist/canonical-mailbox.test.ts
 * holds the two to each other.
 */
export function normalizeEmail(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.indexOf("@");
  if (at < 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf("+");
  // A local part that starts with "+" keeps it: cutting would leave nothing.
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll(".", "");
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
}

/** The first problem with each field, phrased for the visitor. */
export function fieldErrorsOf(error: z.ZodError<WaitlistSignupInput>): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as WaitlistField | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}
