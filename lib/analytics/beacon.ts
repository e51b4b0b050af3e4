/**
 * The page's beacon: a page view once the page is interactive, the funnel's steps as they
 * happen, and the page's LCP, INP and CLS (the web-vitals library, a chunk of its own loaded
 * after the view is sent). It stores nothing on the device and sets no cookie; the server
 * hashes the visitor for the day and forgets what it hashed (docs/analytics.md). Loaded
 * with import() after the page's load event, so it never competes with the page itself.
 */
import { VISIT_PATH } from "../content/paths";
import { campaignIn, signupSource, visitStorage } from "../waitlist/source";
import type { VisitEvent } from "./event";

function send(event: VisitEvent): void {
  const body = JSON.stringify(event);
  // sendBeacon posts text/plain (no preflight) and survives the page closing.
  if (!navigator.sendBeacon?.(VISIT_PATH, body)) {
    void fetch(VISIT_PATH, { method: "POST", body, keepalive: true, headers: { "Content-Type": "text/plain" } }).catch(() => {});
  }
}

/** The visit's campaign: this URL's utm_* if it has them, else the one the visit landed with (lib/waitlist/source.ts). */
function campaign() {
  const here = campaignIn(new URLSearchParams(location.search));
  const remembered = signupSource(location.pathname, visitStorage());
  return {
    utm_source: here.utm_source ?? remembered.utm_source ?? undefined,
    utm_medium: here.utm_medium ?? remembered.utm_medium ?? undefined,
    utm_campaign: here.utm_campaign ?? remembered.utm_campaign ?? undefined,
  };
}

/** The view of this page, then its speed as the visitor met it. */
export function countView(): void {
  const page = location.pathname;
  send({ type: "view", page, referrer: document.referrer || undefined, ...campaign() });
  void import("web-vitals").then(({ onCLS, onINP, onLCP }) => {
    for (const on of [onLCP, onINP, onCLS]) on(({ name, value }) => send({ type: "vital", page, metric: name as "LCP", value }));
  });
}

/** A step of the funnel on this page: the join dialog opened, its form sent. */
export function countStep(type: "open" | "submit"): void {
  send({ type, page: location.pathname, ...campaign() });
}
