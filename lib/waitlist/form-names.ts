/**
 * Names the sign-up forms post beside the visible fields, without zod, so the join page's
 * script does not carry the schema (schema.ts re-exports them for everything else).
 */

/**
 * A field the form hides from people (docs/security.md). Programs that fill in
 * every field fill this one too; a sign-up with it filled is answered like any
 * other and not stored.
 */
export const HONEYPOT_FIELD = "website";

/** The sign-up's origin: stored with it, shown by the operator tool. */
export const SOURCE_FIELDS = ["source_page", "utm_source", "utm_medium", "utm_campaign"] as const;
