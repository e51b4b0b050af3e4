/**
 * Cross-site request check: a browser names the page that made a request in
 * the Origin header. A post whose Origin is not the site's own is refused.
 * Requests without Origin (curl, server-to-server) are not browsers acting for
 * a visitor on another site, so they are let through to the other checks.
 */
import "server-only";
import type { IncomingHttpHeaders } from "node:http";
import { parseEnv } from "../env";

/** What the check reads of a request: a Fetch Request, or server.ts's Node request seen the same way. */
export type RequestLike = { url: string; headers: { get(name: string): string | null } };

export function isForeignOrigin(request: RequestLike, siteOrigin: string): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  return !ownOrigins(request, siteOrigin).has(origin.toLowerCase());
}

/**
 * The origins that are this site's: SITE_URL's, and the address the browser used as the server
 * (or a proxy in front of it) saw it. `siteOrigin`: the origin of SITE_URL, e.g. https://fieldcrew.app.
 */
export function ownOrigins(request: RequestLike, siteOrigin: string): Set<string> {
  const requestUrl = new URL(request.url);
  const origins = new Set([siteOrigin, requestUrl.origin]);
  // The address the visitor's browser used, as the server (or a proxy in front of it) saw it.
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  const protocol = request.headers.get("x-forwarded-proto") ?? requestUrl.protocol.replace(":", "");
  if (host) {
    try {
      origins.add(new URL(`${protocol}://${host}`).origin);
    } catch {
      // A malformed Host header adds nothing.
    }
  }
  return new Set([...origins].map((origin) => origin.toLowerCase()));
}

/**
 * The site's own origins for checks that guard what a signed-in person or a link's holder owns:
 * SITE_URL's, and those in WAITLIST_EXTRA_ORIGINS (a deployment reached at a second address).
 * Never the request's own Host: whoever sends the request chooses that.
 */
function siteOrigins(siteOrigin: string): Set<string> {
  return new Set([siteOrigin, ...parseEnv().WAITLIST_EXTRA_ORIGINS].map((origin) => origin.toLowerCase()));
}

/** A browser's post from a page that is not one of the site's own origins (siteOrigins): the passkey and sign-in steps. */
export function isForeignToSite(request: RequestLike, siteOrigin: string): boolean {
  const origin = request.headers.get("origin");
  return origin !== null && !siteOrigins(siteOrigin).has(origin.toLowerCase());
}

/**
 * Whether the browser says this post came from one of our own pages: stricter
 * than isForeignOrigin, for forms that change something a signed-in person or a
 * link's holder owns (the visitor's page, the console). Browsers set
 * Sec-Fetch-Site and Origin themselves; a page cannot. A page sent with
 * Referrer-Policy: no-referrer makes the browser send `Origin: null` even to its
 * own site, so there Sec-Fetch-Site: same-origin is what vouches. No browser
 * headers at all (a script, a mail scanner) is not our page's form either.
 */
export function isFromOwnPage(request: RequestLike, siteOrigin: string): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return false;
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== "null") return siteOrigins(siteOrigin).has(origin.toLowerCase());
  return site === "same-origin";
}

/**
 * A request another site's page made the browser send: a link or form there (Sec-Fetch-Site
 * cross-site, or same-site from a sibling subdomain). A console download or any other GET with an
 * effect needs our own page or the address typed in (same-origin, none); clients that send no
 * Sec-Fetch-Site are not browsers acting for another site.
 */
export function isStartedElsewhere(request: RequestLike): boolean {
  const site = request.headers.get("sec-fetch-site");
  return site === "cross-site" || site === "same-site";
}

/**
 * A form posted to a page (a Server Action: the join form, the console's forms) from another
 * site. Next refuses these itself, but as a 500; server.ts answers 403 before Next sees them.
 * Posts to /api/ are the routes', which make their own check with their own answer.
 */
export function isForeignPagePost(method: string | undefined, path: string, headers: IncomingHttpHeaders, siteOrigin: string): boolean {
  if (method !== "POST" || path.startsWith("/api/")) return false;
  const get = (name: string) => {
    const value = headers[name];
    return typeof value === "string" ? value : null;
  };
  return isForeignOrigin({ url: `http://${get("host") ?? "localhost"}${path}`, headers: { get } }, siteOrigin);
}
