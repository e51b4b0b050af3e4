/**
 * What each operator may do (least privilege), and which acts need a fresh
 * passkey sign-in. One table, read by every console page, route and Server
 * Action (docs/security.md, "Roles and fresh sign-in"). Browser-safe: no server imports.
 */

export const ROLES = ["admin", "member"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = { admin: "Admin", member: "Member" };

/**
 * The acts only an admin may do. Everything else in the console (the queue, notes,
 * follow-up, assignment, the list and an entry's page, the overview, one's own
 * account) is every operator's.
 */
export const ADMIN_ONLY = {
  manage_operators: "add, re-enrol, change and remove operators",
  export: "download the list",
  remove_entry: "remove an entry",
  edit_invitation: "change the invitation email",
  redeliver: "send a failed delivery again",
  read_audit: "read the audit log",
  send_update: "send an update to the list, pause or cancel one",
} as const;

export type Permission = keyof typeof ADMIN_ONLY;

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function may(role: string, permission: Permission): boolean {
  return role === "admin" && permission in ADMIN_ONLY;
}

/** A dangerous act needs a passkey sign-in no older than this. */
export const FRESH_SIGN_IN_MINUTES = 10;

/** How a session was made (operator_sessions.signed_in_with). An email link is never fresh: it is the way in for a lost passkey. */
const PASSKEY_SIGN_INS: ReadonlySet<string> = new Set(["passkey", "enrolment"]);

export type SessionOrigin = { signedInWith: string | null; signedInAt: Date };

/** True while the session was made with a passkey within FRESH_SIGN_IN_MINUTES. */
export function isFreshSignIn(session: SessionOrigin, now = new Date()): boolean {
  if (!session.signedInWith || !PASSKEY_SIGN_INS.has(session.signedInWith)) return false;
  const age = now.getTime() - session.signedInAt.getTime();
  return age >= -60_000 && age <= FRESH_SIGN_IN_MINUTES * 60_000;
}

/** Where the step-up page sends the operator back to afterwards: a console page with a plain query, nothing else. */
const CONSOLE_PATH = /^\/operator(\/[\w\-/]*)?(\?[\w=&%.\-+:]*)?$/;

export function safeConsolePath(wanted: unknown, fallback = "/operator"): string {
  return typeof wanted === "string" && CONSOLE_PATH.test(wanted) && !wanted.startsWith("/operator/confirm") ? wanted : fallback;
}

const CONFIRM_PATH = "/operator/confirm";

/** The step-up page, coming back to `returnTo` afterwards. */
export function confirmUrl(returnTo: string): string {
  return `${CONFIRM_PATH}?return=${encodeURIComponent(safeConsolePath(returnTo))}`;
}
