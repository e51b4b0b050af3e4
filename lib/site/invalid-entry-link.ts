/**
 * A visitor's link the site did not sign (made up, altered, cut short by an email client),
 * answered before Next with the prerendered "This link is not valid" page and a 404. Next.js 16
 * renders a per-request page's notFound() only in its hydration data, inside an empty
 * <html id="__next_error__"> (vercel/next.js#62228): without JavaScript the visitor saw a blank
 * page. The check is the token's signature alone, so nothing is looked up for such a link.
 */
import "server-only";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ENTRY_PAGE_PATH } from "../content/paths";
import type { PagePolicies } from "../security/page-policies";
import { siteSecret } from "../security/secret";
import { publicIdFromToken } from "../waitlist/entry-link";

/** The refusal, prerendered at this address (app/(site)/waitlist/entry/not-valid/page.tsx). */
const INVALID_ENTRY_LINK_PATH = `${ENTRY_PAGE_PATH}/not-valid`;

/** The page's HTML and the policy that allows exactly its inline scripts. */
export type InvalidEntryLinkPage = { html: Buffer; policy: string };

/**
 * Read once from a production build (`distDir`); a development server renders on request instead.
 * Undefined for a build without the page: such links are then Next's to refuse, as in development.
 */
export function loadInvalidEntryLinkPage(distDir: string, policies: PagePolicies): InvalidEntryLinkPage | undefined {
  const file = path.join(distDir, "server", "app", `${INVALID_ENTRY_LINK_PATH.slice(1)}.html`);
  if (!existsSync(file)) return undefined;
  return { html: readFileSync(file), policy: policies.forPath(INVALID_ENTRY_LINK_PATH) };
}

/** Whether `pathname` (already known to decode) is a visitor's page whose token the site did not sign. */
export function isUnsignedEntryLink(pathname: string): boolean {
  if (!pathname.startsWith(`${ENTRY_PAGE_PATH}/`)) return false;
  const segment = pathname.slice(ENTRY_PAGE_PATH.length + 1);
  // Deeper paths (the data download) are routes with answers of their own. Looked for before
  // decoding: an encoded slash is still one segment, the token Next would hand the page.
  if (segment.includes("/")) return false;
  return publicIdFromToken(siteSecret(), decodeURIComponent(segment)) === null;
}
