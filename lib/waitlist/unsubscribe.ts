/**
 * One-click unsubscribe (RFC 8058): every message to a visitor carries a List-Unsubscribe address
 * of its own entry (lib/waitlist/entry-link.ts, unsubscribeHeaders) and List-Unsubscribe-Post. A
 * POST there (a mailbox provider's button: no cookie, no page, no confirmation) stops all further
 * mail to the entry: it is marked, what was still to be sent is given up, and the audit log says
 * so. A GET (link scanners fetch every link, and unsubscribe services see only this address)
 * changes nothing and leads to a page with one Unsubscribe button and nothing about the person;
 * the unsubscribe token opens nothing else (the visitor's own page has a token of its own).
 */
import "server-only";
import { recordAction, type Actor } from "../audit/trail";
import { getDatabase, isTemporary, type Database } from "../db";
import { errorAnswer, retryLater } from "../http";
import { errorFields, log } from "../log";
import { UNSUBSCRIBE_PAGE_PATH } from "../content/paths";
import { siteSecret } from "../security/secret";
import { publicIdFromToken, UNSUBSCRIBED_PROBLEM } from "./entry-link";
import { entryByLink, type ByLink } from "./visitor-entry";

/** Whom the audit log names for an unsubscribe: the visitor, through their mail program. */
const VISITOR: Actor = { email: "visitor (one-click unsubscribe)", operatorId: null };

type Unsubscribed = "unsubscribed" | "already" | "gone";

/** Marks the entry unsubscribed (the first time is kept) and gives up its pending emails, in one transaction. */
async function unsubscribe(database: Database, publicId: string, now = new Date()): Promise<Unsubscribed> {
  return database.$transaction(async (tx) => {
    // The write first: a transaction that reads before it writes gets no wait for SQLite's lock.
    const marked = await tx.waitlistEntry.updateMany({ where: { publicId, unsubscribedAt: null }, data: { unsubscribedAt: now } });
    const entry = await tx.waitlistEntry.findUnique({ where: { publicId }, select: { id: true } });
    if (!entry) return "gone";
    if (marked.count === 0) return "already";
    await tx.outboxMessage.updateMany({
      where: { entryId: entry.id, kind: "email", status: "pending" },
      data: { status: "failed", lastError: UNSUBSCRIBED_PROBLEM, leaseOwner: null, leaseExpiresAt: null },
    });
    await recordAction(tx, { actor: VISITOR, action: "unsubscribed", entryId: entry.id, at: now });
    return "unsubscribed";
  });
}

type UnsubscribeOptions = { secret: string; database: () => Database; now?: () => Date };

/** The page's address for a token: where a GET of the link leads, and where its button's POST returns. */
function unsubscribePagePath(token: string): string {
  return `${UNSUBSCRIBE_PAGE_PATH}/${encodeURIComponent(token)}`;
}

/** The query a form on the unsubscribe page adds to the POST: its answer is then the page again, not a line of text. */
export const FROM_PAGE = "from=page";

/** The handlers of UNSUBSCRIBE_PATH/<token>: POST unsubscribes, GET leads to the unsubscribe page. */
export function createUnsubscribeHandlers(options: UnsubscribeOptions) {
  const text = (status: number, message: string) =>
    new Response(message, {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Robots-Tag": "noindex" },
    });
  const toPage = (token: string) =>
    new Response(null, { status: 303, headers: { Location: unsubscribePagePath(token), "Cache-Control": "no-store" } });

  async function POST(request: Request, token: string): Promise<Response> {
    const publicId = publicIdFromToken(options.secret, token, "unsubscribe");
    const fromPage = new URL(request.url).search === `?${FROM_PAGE}`;
    if (!publicId) return errorAnswer(404, "link_invalid", "This unsubscribe link is not valid.", { as: "text" });
    try {
      const outcome = await unsubscribe(options.database(), publicId, options.now?.());
      // The page's button: back to the page, which now says so (POST, redirect, GET).
      if (fromPage) return toPage(token);
      if (outcome === "gone")
        return errorAnswer(404, "entry_gone", "This entry is no longer on the waitlist: we send it nothing.", { as: "text" });
      return text(200, "You are unsubscribed: we will send you no more email.");
    } catch (error) {
      if (isTemporary(error)) {
        log.warn({ fault: "database_unavailable", ...errorFields(error) }, "unsubscribe answered 503: nothing changed");
        return errorAnswer(503, "temporarily_unavailable", "We could not do that just now. Please try again in a moment.", {
          as: "text",
          headers: retryLater(),
        });
      }
      log.error({ fault: "unexpected", ...errorFields(error) }, "unsubscribe failed");
      return errorAnswer(500, "unexpected", "Something went wrong on our side. Please try again later.", { as: "text" });
    }
  }

  /** Changes nothing: the unsubscribe page, with its one button. */
  function GET(_request: Request, token: string): Response {
    const publicId = publicIdFromToken(options.secret, token, "unsubscribe");
    if (!publicId) return errorAnswer(404, "link_invalid", "This unsubscribe link is not valid.", { as: "text" });
    return toPage(token);
  }

  return { POST, GET };
}

/** What the unsubscribe page shows for a token: whether mail still goes to its entry, and nothing else about it. */
export type UnsubscribePage = ByLink<{ unsubscribed: boolean }>;

export function loadUnsubscribePage(
  token: string,
  database: () => Database = getDatabase,
  secret = siteSecret(),
): Promise<UnsubscribePage> {
  return entryByLink(
    token,
    secret,
    async (publicId) => {
      const entry = await database().waitlistEntry.findUnique({ where: { publicId }, select: { unsubscribedAt: true } });
      return entry && { unsubscribed: entry.unsubscribedAt !== null };
    },
    "unsubscribe page",
    "unsubscribe",
  );
}
