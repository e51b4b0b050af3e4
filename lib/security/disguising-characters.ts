/**
 * Characters that can rewrite or disguise what a person reads, in a terminal or in the console:
 * C0 and C1 controls (escape sequences among them), DEL, and bidirectional overrides and isolates.
 * One list for every place that shows visitor- or operator-typed text (lib/console/format.ts,
 * lib/auth/passkey-name.ts, lib/waitlist/confirmation-email.ts).
 */
export const DISGUISING_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
