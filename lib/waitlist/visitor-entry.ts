/**
 * The visitor's own page (/waitlist/entry/<token>, from the confirmation email)
 * and its two actions, Confirm and Remove. Both actions are POSTs from the
 * page's forms, refused unless they come from the site's own pages: mail
 * scanners open links, and opening the link must change nothing.
 */
import "server-only";
import { recordAction, type Actor } from "../audit/trail";
import { getDatabase, isTemporary, Prisma, type Database } from "../db";
import { ApiError, readForm, seeOther } from "../http";
import { errorFields, log } from "../log";
import { siteSecret } from "../security/secret";
import { publicIdFromToken } from "./entry-link";
import { ENTRY_PAGE_PATH } from "../content/paths";
import { shownFields, signupOf } from "./fields";
import { visitorStanding, type Standing } from "../follow-up/visitor-standing";

export type EntryView = {
  contactName: string;
  email: string;
  /** The fields the visitor's page shows (lib/waitlist/fields.ts), as [label, value] in order. */
  registered: [label: string, value: string][];
  signedUpAt: Date;
  confirmedAt: Date | null;
  /** When they unsubscribed from all email with one click (lib/waitlist/unsubscribe.ts). */
  unsubscribedAt: Date | null;
  /** Where they stand with the team (lib/follow-up/visitor-standing.ts), in their words. */
  standing: Standing | null;
};

/**
 * What a signed link leads to: a link that is not ours, an entry that is gone,
 * the entry, or (the database cannot answer right now) a request to try again soon.
 */
export type ByLink<T> = { state: "invalid" } | { state: "gone" } | { state: "unavailable" } | { state: "found"; entry: T };

/**
 * The entry a visitor's link names, read with `find` (the page and the data
 * download read different things). Nothing is looked up before the signature
 * checks out; a database that cannot answer now is "unavailable", not an error.
 */
export async function entryByLink<T>(
  token: string,
  secret: string,
  find: (publicId: string) => Promise<T | null>,
  what: string,
  /** What the token must be signed for: the visitor's page (and its download), or unsubscribing. */
  purpose: "entry" | "unsubscribe" = "entry",
): Promise<ByLink<T>> {
  const publicId = publicIdFromToken(secret, token, purpose);
  if (!publicId) return { state: "invalid" };
  let entry;
  try {
    entry = await find(publicId);
  } catch (error) {
    if (!isTemporary(error)) throw error;
    log.warn({ fault: "database_unavailable", ...errorFields(error) }, `${what} answered as unavailable`);
    return { state: "unavailable" };
  }
  return entry ? { state: "found", entry } : { state: "gone" };
}

/** What the visitor's page shows. */
export type EntryPage = ByLink<EntryView>;

export async function loadEntryPage(token: string, database: () => Database = getDatabase, secret = siteSecret()): Promise<EntryPage> {
  const page = await entryByLink(
    token,
    secret,
    (publicId) => database().waitlistEntry.findUnique({ where: { publicId } }),
    "visitor's page",
  );
  if (page.state !== "found") return page;
  const { entry } = page;
  return {
    state: "found",
    entry: {
      contactName: entry.contactName,
      email: entry.email,
      registered: shownFields(signupOf(entry), "onVisitorPage"),
      signedUpAt: entry.createdAt,
      confirmedAt: entry.confirmedAt,
      unsubscribedAt: entry.unsubscribedAt,
      standing: visitorStanding(entry),
    },
  };
}

/** Sets the confirmed time once; confirming again keeps the first. True when the entry exists. */
async function confirmEntry(database: Database, publicId: string, now = new Date()): Promise<boolean> {
  await database.waitlistEntry.updateMany({ where: { publicId, confirmedAt: null }, data: { confirmedAt: now } });
  return (await database.waitlistEntry.count({ where: { publicId } })) === 1;
}

/**
 * Deletes an entry with what was still owed about it (its outbox rows go with
 * it), and counts the removal without keeping anything about the person.
 * True when there was an entry to remove.
 *
 * An entry that older rows were marked duplicates of (duplicate_of, from the
 * canonical-mailbox migration) hands its place to the oldest of them, which the
 * others then point at: the mailbox stays on the list once, and the unique key
 * among entries that are not duplicates still holds.
 */
export async function removeEntry(
  database: Database,
  where: { publicId: string } | { id: number },
  /** Who removed it: the visitor, an operator, or the retention period (WAITLIST_RETENTION_DAYS). */
  removedBy: "visitor" | "operator" | "retention",
  now = new Date(),
  /** Whom the audit log names (lib/console/audit.ts); an operator's removal always has one. */
  actor?: Actor,
): Promise<boolean> {
  return database.$transaction(async (tx) => {
    // The delete first: a transaction that reads before it writes gets no wait for SQLite's lock
    // ("database is locked" at once if another write came between); a first write waits its turn.
    const [entry] = await tx.$queryRaw<{ id: bigint | number }[]>`
      DELETE FROM waitlist_entries WHERE ${"id" in where ? Prisma.sql`id = ${where.id}` : Prisma.sql`public_id = ${where.publicId}`} RETURNING id`;
    if (!entry) return false;
    const id = Number(entry.id);
    const [heir, ...others] = await tx.waitlistEntry.findMany({
      where: { duplicateOf: id },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true },
    });
    if (heir) {
      await tx.waitlistEntry.update({ where: { id: heir.id }, data: { duplicateOf: null } });
      if (others.length > 0)
        await tx.waitlistEntry.updateMany({ where: { id: { in: others.map((row) => row.id) } }, data: { duplicateOf: heir.id } });
    }
    await tx.waitlistRemoval.create({ data: { removedAt: now, removedBy } });
    if (actor) await recordAction(tx, { actor, action: "entry_removed", entryId: id, at: now });
    return true;
  });
}

export const ENTRY_ACTIONS = ["confirm", "remove"] as const;
export type EntryAction = (typeof ENTRY_ACTIONS)[number];

/** Longer than any token and action; anything bigger is not from our form. */
const MAX_FORM_BYTES = 2_048;

/** After the action, back to the page (POST, then redirect, then GET): reloading it changes nothing. */
function backToPage(token: string, done?: EntryAction): Response {
  return seeOther(`${ENTRY_PAGE_PATH}/${encodeURIComponent(token)}${done ? `?done=${done}` : ""}`);
}

/** What the page's actions need of the site. */
type EntryActionServices = { secret: string; database: () => Database };

/** POST /api/waitlist/entry (visitorPage guard): `token` and `action` (confirm or remove), form-encoded. */
export async function postEntryAction(request: Request, { services }: { services: EntryActionServices }): Promise<Response> {
  const form = await readForm(request, MAX_FORM_BYTES, "your waitlist page");
  const token = form.get("token") ?? "";
  const action = form.get("action");
  if (!ENTRY_ACTIONS.includes(action as EntryAction))
    throw new ApiError("invalid_choice", { detail: "Choose Confirm or Remove on your waitlist page." });
  const publicId = publicIdFromToken(services.secret, token);
  // A made-up or altered link: its page says so.
  if (!publicId) return backToPage(token);
  if (action === "confirm") await confirmEntry(services.database(), publicId);
  else await removeEntry(services.database(), { publicId }, "visitor");
  return backToPage(token, action as EntryAction);
}
