/** Where the waitlist's own pages live: links to them are in every page's script, so only the paths. */
export const JOIN_PATH = "/join";
export const LINK_AGAIN_PATH = "/waitlist/link";
export const PRIVACY_PATH = "/privacy";
/** The visitor's own page; the token of their link follows (lib/waitlist/entry-link.ts). */
export const ENTRY_PAGE_PATH = "/waitlist/entry";
/** One-click unsubscribe (RFC 8058); a token of its own follows (lib/waitlist/unsubscribe.ts). */
export const UNSUBSCRIBE_PATH = "/api/waitlist/unsubscribe";
/** The page a GET of an unsubscribe link leads to: one Unsubscribe button, nothing about the person. */
export const UNSUBSCRIBE_PAGE_PATH = "/waitlist/unsubscribe";
/** Where pages send their visits (lib/analytics/): the beacon's POST, the <noscript> image's GET. */
export const VISIT_PATH = "/api/visit";
