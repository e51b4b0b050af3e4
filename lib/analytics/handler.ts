/**
 * POST /api/visit (a page's beacon) and GET /api/visit (the no-JavaScript pixel): from a
 * request to what is counted (record.ts). The pipeline: another site's page -> 403; a body
 * over 1 KiB -> 413; not an event -> 400; a bot, a page we do not count, or an address over
 * the day's cap -> 204, nothing counted; otherwise 204 at once, and the event is counted in
 * the next batch (record.ts). A beacon's answer is read by nobody (the page may be gone), and
 * waiting for the write would tie the endpoint's rate to the database's latency rather than
 * its throughput (bench:visits); a batch that cannot be written is logged (visit_not_counted),
 * and a graceful shutdown waits for what is queued (drain). The address and the user agent
 * are used for the hash and forgotten.
 */
import "server-only";
import { isbot } from "isbot";
import { PAGES } from "../content/pages";
import { JOIN_PATH } from "../content/paths";
import { isTemporary } from "../db";
import { NotWritten } from "../group-commit";
import { errorAnswer, hasContentType, NOT_UTF8, readBoundedText, retryLater, TOO_LARGE, UNREADABLE } from "../http";
import { errorFields, log } from "../log";
import { CLIENT_ADDRESS_HEADER, UNKNOWN_CLIENT } from "../security/client-address";
import { isForeignOrigin, ownOrigins, type RequestLike } from "../security/origin";
import { MAX_VISIT_BODY_BYTES, visitEventSchema, type Step, type VisitEvent } from "./event";
import { campaignKey, type Counting, type VisitCounter } from "./record";
import { campaignIn } from "../waitlist/source";
import { bucketOf } from "./vitals";
import { addressHash, deviceOf, visitorHash, type DailySalt } from "./visitor";
import { utcDay } from "../time";

/** The pages counted: the public pages (lib/content/pages.ts). Any other path (a visitor's own page with its key) is not. */
const COUNTED_PAGES: ReadonlySet<string> = new Set(Object.values(PAGES).map((page) => page.path));

/** A transparent 1×1 GIF: what the <noscript> image gets. */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** How often the events turned away by a full queue are logged: one line with their number. */
const REFUSALS_LOGGED_EVERY_MS = 1_000;

type VisitHandlerOptions = {
  siteUrl: string;
  counter: VisitCounter;
  salt: DailySalt;
  now?: () => Date;
};

/** The page's path as counted: without a trailing slash; null for a page we do not count. */
function countedPage(path: string): string | null {
  const page = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return COUNTED_PAGES.has(page) ? page : null;
}

/**
 * Where a view came from: the referring site (its host without "www.", "(direct)" for none), or,
 * for a move between our own pages, nothing as a site and the page it came from (when counted).
 */
export function referrerOf(referrer: string | undefined, own: ReadonlySet<string>): { site?: string; ownPage?: string | null } {
  let url: URL;
  try {
    url = new URL(referrer ?? "");
  } catch {
    return { site: "(direct)" };
  }
  if (own.has(url.origin.toLowerCase())) return { ownPage: countedPage(url.pathname) };
  if (url.protocol !== "http:" && url.protocol !== "https:") return { site: `${url.protocol.replace(":", "")} app`.slice(0, 100) };
  return {
    site: url.hostname
      .toLowerCase()
      .replace(/^www\./, "")
      .slice(0, 100),
  };
}

/** Do Not Track or Global Privacy Control: the visit is counted, the visitor is given no hash. */
function asksNotToBeTracked(headers: { get(name: string): string | null }): boolean {
  return headers.get("dnt") === "1" || headers.get("sec-gpc") === "1";
}

/**
 * The funnel steps of an event. A view of /join (the form without the dialog) is also the form
 * opened, counted on the page the visitor came from when that is one of ours (as the sign-up's
 * source_page is), else on /join.
 */
function stepsOf(
  event: Exclude<VisitEvent, { type: "vital" }>,
  page: string,
  cameFrom: string | null | undefined,
): { step: Step; page: string }[] {
  if (event.type !== "view") return [{ step: event.type, page }];
  if (page !== JOIN_PATH) return [{ step: "view", page }];
  return [
    { step: "view", page },
    { step: "open", page: cameFrom ?? JOIN_PATH },
  ];
}

export function createVisitHandler(options: VisitHandlerOptions) {
  const now = options.now ?? (() => new Date());
  const siteOrigin = new URL(options.siteUrl).origin;

  // A full queue (WAITLIST_MAX_PENDING_WRITES) turns away every event of a flood while a lock is
  // held: one line a second says how many, where one line each would flood the log.
  let refusedEvents = 0;
  let refusalsLine: NodeJS.Timeout | undefined;
  function logRefusals(): void {
    clearTimeout(refusalsLine);
    refusalsLine = undefined;
    if (refusedEvents === 0) return;
    log.warn(
      { fault: "visit_not_counted", temporary: true, events: refusedEvents },
      "visits could not be counted: too many were waiting to be written",
    );
    refusedEvents = 0;
  }

  /**
   * Counts one event of a request that passed the checks (or counts nothing: a bot, a page we do
   * not count). `referrerKnown`: false for the <noscript> image, whose referrer is our own page.
   */
  async function count(request: RequestLike, event: VisitEvent, referrerKnown = true): Promise<void> {
    const userAgent = request.headers.get("user-agent") ?? "";
    const page = countedPage(event.page);
    // Bots (a kept list: isbot) and pages we do not count: accepted, nothing counted.
    if (page === null || !userAgent || isbot(userAgent)) return;
    const day = utcDay(now());
    const address = request.headers.get(CLIENT_ADDRESS_HEADER) ?? UNKNOWN_CLIENT;
    const salt = await options.salt.of(day);
    const cameFrom = event.type === "view" && referrerKnown ? referrerOf(event.referrer, ownOrigins(request, siteOrigin)) : {};
    const counting: Counting = {
      day,
      address: addressHash(salt, address),
      visitor: asksNotToBeTracked(request.headers) ? null : visitorHash(salt, address, userAgent),
      page,
      steps: event.type === "vital" ? [] : stepsOf(event, page, cameFrom.ownPage),
      campaign: event.type === "vital" ? campaignKey() : campaignKey(event.utm_source, event.utm_medium, event.utm_campaign),
      ...(cameFrom.site !== undefined ? { referrer: cameFrom.site } : {}),
      ...(event.type === "vital"
        ? { vital: { metric: event.metric, device: deviceOf(userAgent), bucket: bucketOf(event.metric, event.value) } }
        : {}),
    };
    // No deadline: nobody waits for this write, so an event waits for its batch as long as the batch
    // before it waits for a lock (record.ts), and the queue's bound (maxPending) keeps memory in check.
    options.counter.count(counting).catch((error: unknown) => {
      if (error instanceof NotWritten && error.kind === "overloaded") {
        refusedEvents += 1;
        refusalsLine ??= setTimeout(logRefusals, REFUSALS_LOGGED_EVERY_MS).unref();
        return;
      }
      log.warn({ fault: "visit_not_counted", temporary: isTemporary(error), ...errorFields(error) }, "a visit could not be counted");
    });
  }

  /** The answer to a failure before an event is queued (the day's salt): 503 for a temporary one, else logged and 500. */
  function failed(error: unknown): Response {
    if (isTemporary(error)) {
      return errorAnswer("temporarily_unavailable", { headers: retryLater() });
    }
    log.error({ fault: "visit_not_counted", ...errorFields(error) }, "a visit could not be counted");
    return errorAnswer("unexpected");
  }

  /** POST: one event as JSON (navigator.sendBeacon sends it as text/plain, which needs no preflight). */
  async function post(request: Request): Promise<Response> {
    const site = request.headers.get("sec-fetch-site");
    if (isForeignOrigin(request, siteOrigin) || (site !== null && site !== "same-origin" && site !== "none")) {
      return errorAnswer("foreign_origin");
    }
    if (!hasContentType(request, "text/plain") && !hasContentType(request, "application/json")) {
      return errorAnswer("unsupported_media_type", { detail: "Send the event as JSON." });
    }
    const text = await readBoundedText(request, MAX_VISIT_BODY_BYTES);
    if (text === TOO_LARGE) return errorAnswer("too_large", { detail: `An event is at most ${MAX_VISIT_BODY_BYTES} bytes.` });
    if (text === UNREADABLE || text === NOT_UTF8) return errorAnswer("invalid_event");
    let event: VisitEvent;
    try {
      event = visitEventSchema.parse(JSON.parse(text));
    } catch {
      return errorAnswer("invalid_event");
    }
    try {
      await count(request, event);
      return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
    } catch (error) {
      return failed(error);
    }
  }

  /**
   * GET: the <noscript> image of a page seen without JavaScript. The page and its campaign come
   * from the Referer the browser sends with it (the full address: it is our own page).
   */
  async function pixel(request: Request): Promise<Response> {
    const gif = () =>
      new Response(new Uint8Array(PIXEL), { status: 200, headers: { "Content-Type": "image/gif", "Cache-Control": "no-store" } });
    const referer = request.headers.get("referer");
    let page: URL | null = null;
    try {
      page = referer ? new URL(referer) : null;
    } catch {
      page = null;
    }
    if (!page || !ownOrigins(request, siteOrigin).has(page.origin.toLowerCase())) {
      return errorAnswer("foreign_origin");
    }
    const event: VisitEvent = { type: "view", page: page.pathname, ...campaignIn(page.searchParams) };
    try {
      // No referring site: the browser named our page as the image's referrer, not the page's own.
      await count(request, event, false);
      return gif();
    } catch (error) {
      return failed(error);
    }
  }

  /** A step counted by the server itself: the join page's form post (its Server Action), with or without JavaScript. */
  async function countStep(
    headers: Headers,
    step: "submit",
    page: string,
    campaign: { utm_source?: string; utm_medium?: string; utm_campaign?: string },
  ): Promise<void> {
    const event = visitEventSchema.safeParse({ type: step, page, ...campaign });
    if (!event.success) return;
    try {
      await count({ url: `${siteOrigin}${page}`, headers }, event.data);
    } catch (error) {
      // Counting never changes the visitor's answer.
      log.warn({ fault: "visit_not_counted", ...errorFields(error) }, "a form post could not be counted");
    }
  }

  /** Resolves once every event accepted so far is written (or failed and logged): for a graceful shutdown, and for tests. */
  const drain = async () => {
    await options.counter.drain();
    logRefusals();
  };

  return { post, pixel, countStep, drain };
}

export type VisitHandler = ReturnType<typeof createVisitHandler>;
