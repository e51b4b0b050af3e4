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
import { getDatabase, type Database } from "../db";
import { ApiError, seeOther } from "../http";
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
      where: { entryId: entry.id, kind: { in: ["email", "update"] }, status: "pending" },
      data: { status: "failed", lastError: UNSUBSCRIBED_PROBLEM, leaseOwner: null, leaseExpiresAt: null },
    });
    await recordAction(tx, { actor: VISITOR, action: "unsubscribed", entryId: entry.id, at: now });
    return "unsubscribed";
  });
}

/** What unsubscribing needs of the site. */
type UnsubscribeServices = { secret: string; database: () => Database };

/** The page's address for a token: where a GET of the link leads, and where its button's POST returns. */
function unsubscribePagePath(token: string): string {
  return `${UNSUBSCRIBE_PAGE_PATH}/${encodeURIComponent(token)}`;
}

/** The query a form on the unsubscribe page adds to the POST: its answer is then the page again, not a line of text. */
export const FROM_PAGE = "from=page";

const toPage = (token: string) => seeOther(unsubscribePagePath(token));

/** POST UNSUBSCRIBE_PATH/<token> (public: the token is the key): unsubscribes with one click. */
export async function postUnsubscribe(
  request: Request,
  { services }: { services: UnsubscribeServices },
  { token = "" },
): Promise<Response> {
  const publicId = publicIdFromToken(services.secret, token, "unsubscribe");
  if (!publicId) throw new ApiError("link_invalid");
  const outcome = await unsubscribe(services.database(), publicId);
  // The page's button: back to the page, which now says so (POST, redirect, GET).
  if (new URL(request.url).search === `?${FROM_PAGE}`) return toPage(token);
  if (outcome === "gone") throw new ApiError("entry_gone", { detail: "We send it nothing." });
  return new Response("You are unsubscribed: we will send you no more email.", {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Robots-Tag": "noindex" },
  });
}

/** GET UNSUBSCRIBE_PATH/<token>: changes nothing, and leads to the unsubscribe page with its one button. */
export function getUnsubscribe(_request: Request, { services }: { services: UnsubscribeServices }, { token = "" }): Response {
  if (!publicIdFromToken(services.secret, token, "unsubscribe")) throw new ApiError("link_invalid");
  return toPage(token);
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
