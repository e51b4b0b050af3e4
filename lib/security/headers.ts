/**
 * The security headers on every response (set by server.ts), and the
 * Content-Security-Policy they include. docs/security.md explains each.
 */
import "server-only";
import { createHash } from "node:crypto";
import { ENTRY_PAGE_PATH, JOIN_PATH, LINK_AGAIN_PATH, PRIVACY_PATH, UNSUBSCRIBE_PAGE_PATH } from "../content/paths";

type CspSources = {
  /** 'sha256-…' sources of the inline scripts the page may run. */
  scriptHashes: readonly string[];
  /** For a page rendered per request: the nonce Next puts on its scripts in this one response. */
  nonce?: string;
};

/**
 * The pages are prerendered at build time, so a per-request nonce is not
 * possible without rendering every page on every request. Next's inline
 * scripts (the hydration data) are known after the build, though, so the
 * policy allows exactly those by hash, plus the site's own script files.
 */
export function contentSecurityPolicy({ scriptHashes, nonce }: CspSources, development = false): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    // Development: React's dev build evaluates code and Next injects inline scripts for fast refresh.
    "script-src": development
      ? ["'self'", "'unsafe-eval'", "'unsafe-inline'"]
      : ["'self'", ...scriptHashes, ...(nonce ? [`'nonce-${nonce}'`] : [])],
    // Tailwind's stylesheet is a file; nothing is styled inline (the dev overlay is, in development).
    "style-src": development ? ["'self'", "'unsafe-inline'"] : ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    // The dialog calls /api/waitlist; in development the hot reloader uses a websocket.
    "connect-src": development ? ["'self'", "ws:"] : ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}

/**
 * The headers besides the policy. HSTS only in production: a local http server must stay reachable.
 * No Cross-Origin-Opener-Policy: it made every first page load in a tab start a new browser
 * process (30-40 ms before parsing starts, measured) and guards little here (docs/security.md).
 */
export function securityHeaders(production: boolean): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
    ...(production ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** CSP hash sources for every inline script in an HTML document, in order, without repeats. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, body] of html.matchAll(INLINE_SCRIPT)) {
    if (!body) continue;
    hashes.add(`'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/**
 * The visitor's own page (/waitlist/entry/<token>), and the unsubscribe page (/waitlist/unsubscribe/<token>), render on each request, so
 * its inline scripts cannot be hashed at build time. Each response gets the
 * site's policy with a nonce made for it instead, as strict as the hashes (no
 * 'unsafe-inline', no other source), which server.ts also hands to Next in the
 * request so that Next puts it on the page's scripts. The page's address carries
 * the visitor's key: no Referer leaves it, and search engines are told to stay out.
 */
function visitorPageHeaders(nonce: string): Record<string, string> {
  return { "Content-Security-Policy": contentSecurityPolicy({ scriptHashes: [], nonce }), ...VISITOR_PAGE_PRIVACY };
}

/** What every answer at a visitor's page's address carries besides its policy, the refusal of a bad link too. */
export const VISITOR_PAGE_PRIVACY: Readonly<Record<string, string>> = {
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex, nofollow",
};

/** The console's pages (/operator...): rendered per request like the visitor's page, so a nonce too. */
const CONSOLE_PATH = "/operator";

function isConsolePath(pathname: string): boolean {
  return pathname === CONSOLE_PATH || pathname.startsWith(`${CONSOLE_PATH}/`);
}

/**
 * The console shows many people's data: the same strict policy with a nonce for
 * its scripts (the passkey buttons), never cached by a browser or proxy, never
 * indexed. The enrolment link's token is in the #fragment, which no Referer carries.
 */
function consolePageHeaders(nonce: string): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy({ scriptHashes: [], nonce }),
    "Referrer-Policy": "same-origin",
    "X-Robots-Tag": "noindex, nofollow",
    "Cache-Control": "no-store",
  };
}

/**
 * The public pages rendered per request (/join and /waitlist/link carry a security question
 * or answer a post; /privacy states this site's retention setting): a nonce like the visitor's
 * page; never cached (a question is single-use, an answer is one visitor's), but indexed.
 */
function formPageHeaders(nonce: string): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy({ scriptHashes: [], nonce }),
    "Cache-Control": "no-store",
  };
}

const FORM_PAGES: ReadonlySet<string> = new Set([JOIN_PATH, LINK_AGAIN_PATH, PRIVACY_PATH]);

/** The headers of a page rendered per request, given its nonce; undefined for a prerendered page (hashes) or a route. */
export function perRequestPageHeaders(pathname: string): ((nonce: string) => Record<string, string>) | undefined {
  if (pathname.startsWith(`${ENTRY_PAGE_PATH}/`) || pathname.startsWith(`${UNSUBSCRIBE_PAGE_PATH}/`)) return visitorPageHeaders;
  if (isConsolePath(pathname)) return consolePageHeaders;
  if (FORM_PAGES.has(pathname)) return formPageHeaders;
  return undefined;
}
