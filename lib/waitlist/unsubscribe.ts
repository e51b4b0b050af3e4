/**
 * One-click unsubscribe (RFC 8058): every message to a visitor carries a List-Unsubscribe address
 * of its own entry (lib/waitlist/entry-link.ts, unsubscribeUrl) and List-Unsubscribe-Post. A POST
 * there (a mailbox provider's button: no cookie, no page, no confirmation) stops all further mail
 * to the entry: it is marked, what was still to be sent is given up, and the audit log says so. A
 * GET (link scanners fetch every link) changes nothing and leads to the visitor's own page.
 */
import "server-only";
import { recordAction, type Actor } from "../audit/trail";
import { isTemporary, type Database } from "../db";
import { errorAnswer, retryLater } from "../http";
import { errorFields, log } from "../log";
import { entryToken, entryUrl, publicIdFromToken, UNSUBSCRIBED_PROBLEM } from "./entry-link";

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

type UnsubscribeOptions = { siteUrl: string; secret: string; database: () => Database; now?: () => Date };

/** The handlers of UNSUBSCRIBE_PATH/<token>: POST unsubscribes, GET leads to the visitor's page. */
export function createUnsubscribeHandlers(options: UnsubscribeOptions) {
  const text = (status: number, message: string, headers: Record<string, string> = {}) =>
    new Response(message, {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Robots-Tag": "noindex", ...headers },
    });

  async function POST(_request: Request, token: string): Promise<Response> {
    const publicId = publicIdFromToken(options.secret, token, "unsubscribe");
    if (!publicId) return errorAnswer(404, "link_invalid", "This unsubscribe link is not valid.", { as: "text" });
    try {
      const outcome = await unsubscribe(options.database(), publicId, options.now?.());
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

  /** Changes nothing: the visitor's own page, which says whether they unsubscribed. */
  function GET(_request: Request, token: string): Response {
    const publicId = publicIdFromToken(options.secret, token, "unsubscribe");
    if (!publicId) return errorAnswer(404, "link_invalid", "This unsubscribe link is not valid.", { as: "text" });
    return new Response(null, {
      status: 303,
      headers: { Location: entryUrl(options.siteUrl, entryToken(options.secret, publicId)), "Cache-Control": "no-store" },
    });
  }

  return { POST, GET };
}
