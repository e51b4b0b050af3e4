/**
 * The visitor's own page (/waitlist/entry/<token>, from the confirmation email)
 * and its two actions, Confirm and Remove. Both actions are POSTs from the
 * page's forms, refused unless they come from the site's own pages: mail
 * scanners open links, and opening the link must change nothing.
 */
import { getDatabase, type Database } from "../db";
import { parseEnv } from "../env";
import { isForeignOrigin } from "../security/origin";
import { challengeSecret } from "../security/secret";
import { ENTRY_PAGE_PATH, publicIdFromToken } from "./entry-link";
import { BUSINESS_TYPES, COMPANY_SIZES } from "./options";

export type EntryView = {
  companyName: string;
  contactName: string;
  email: string;
  phone: string;
  businessType: string;
  companySize: string;
  signedUpAt: Date;
  confirmedAt: Date | null;
};

/** What the page shows: a link that is not ours, an entry that is gone, or the entry. */
export type EntryPage = { state: "invalid" } | { state: "gone" } | { state: "found"; entry: EntryView };

const labelOf = (options: readonly { value: string; label: string }[], value: string) =>
  options.find((option) => option.value === value)?.label ?? value;

/** The secret the links are signed with; the same one that signs the security questions. */
function linkSecret(): string {
  return challengeSecret(parseEnv().WAITLIST_SECRET);
}

export async function loadEntryPage(token: string, database: Database = getDatabase(), secret = linkSecret()): Promise<EntryPage> {
  const publicId = publicIdFromToken(secret, token);
  if (!publicId) return { state: "invalid" };
  const entry = await database.waitlistEntry.findUnique({ where: { publicId } });
  if (!entry) return { state: "gone" };
  return {
    state: "found",
    entry: {
      companyName: entry.companyName,
      contactName: entry.contactName,
      email: entry.email,
      phone: entry.phone,
      businessType: labelOf(BUSINESS_TYPES, entry.businessType),
      companySize: labelOf(COMPANY_SIZES, entry.companySize),
      signedUpAt: entry.createdAt,
      confirmedAt: entry.confirmedAt,
    },
  };
}

/** Sets the confirmed time once; confirming again keeps the first. True when the entry exists. */
export async function confirmEntry(database: Database, publicId: string, now = new Date()): Promise<boolean> {
  await database.waitlistEntry.updateMany({ where: { publicId, confirmedAt: null }, data: { confirmedAt: now } });
  return (await database.waitlistEntry.count({ where: { publicId } })) === 1;
}

/**
 * Deletes an entry with what was still owed about it (its outbox rows go with
 * it), and counts the removal without keeping anything about the person.
 * True when there was an entry to remove.
 */
export async function removeEntry(
  database: Database,
  where: { publicId: string } | { id: number },
  removedBy: "visitor" | "operator",
  now = new Date(),
): Promise<boolean> {
  return database.$transaction(async (tx) => {
    const { count } = await tx.waitlistEntry.deleteMany({ where });
    if (count === 0) return false;
    await tx.waitlistRemoval.create({ data: { removedAt: now, removedBy } });
    return true;
  });
}

export const ENTRY_ACTIONS = ["confirm", "remove"] as const;
export type EntryAction = (typeof ENTRY_ACTIONS)[number];

/** Longer than any token and action; anything bigger is not from our form. */
const MAX_FORM_BYTES = 2_048;

function plainAnswer(status: number, text: string): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/** After the action, back to the page (POST, then redirect, then GET): reloading it changes nothing. */
function backToPage(token: string, done?: EntryAction): Response {
  const location = `${ENTRY_PAGE_PATH}/${encodeURIComponent(token)}${done ? `?done=${done}` : ""}`;
  return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
}

/**
 * Whether the browser says this post came from one of our own pages. Browsers
 * set Sec-Fetch-Site and Origin themselves; a page cannot. The visitor's page
 * sends no Referer (Referrer-Policy: no-referrer), and with that policy a
 * browser sends `Origin: null` even to its own site, so there Sec-Fetch-Site:
 * same-origin is what vouches. No browser headers at all (a script, a mail
 * scanner) is not our page's form either.
 */
function isFromOurPage(request: Request, siteOrigin: string): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return false;
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== "null") return !isForeignOrigin(request, siteOrigin);
  return site === "same-origin";
}

export type EntryActionOptions = { siteUrl: string; secret: string; database?: () => Database; now?: () => Date };

/** POST /api/waitlist/entry: `token` and `action` (confirm or remove), form-encoded. */
export function createEntryActionHandler(options: EntryActionOptions): (request: Request) => Promise<Response> {
  const siteOrigin = new URL(options.siteUrl).origin;
  const database = options.database ?? getDatabase;
  const now = options.now ?? (() => new Date());

  return async function handleEntryAction(request) {
    if (!isFromOurPage(request, siteOrigin)) return plainAnswer(403, "This request did not come from a FieldCrew page, so nothing was changed.");
    const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded") return plainAnswer(415, "Send the form from your waitlist page.");
    const body = await request.text();
    if (body.length > MAX_FORM_BYTES) return plainAnswer(413, "That form is too large.");
    const form = new URLSearchParams(body);
    const token = form.get("token") ?? "";
    const action = form.get("action");
    if (!ENTRY_ACTIONS.includes(action as EntryAction)) return plainAnswer(400, "Choose Confirm or Remove on your waitlist page.");

    const publicId = publicIdFromToken(options.secret, token);
    // A made-up or altered link: its page says so.
    if (!publicId) return backToPage(token);
    try {
      if (action === "confirm") await confirmEntry(database(), publicId, now());
      else await removeEntry(database(), { publicId }, "visitor", now());
    } catch (error) {
      console.error(`[waitlist] entry ${action} failed: ${error instanceof Error ? error.message : String(error)}`);
      return plainAnswer(500, "Something went wrong on our side. Please try again later.");
    }
    return backToPage(token, action as EntryAction);
  };
}

let siteEntryActionHandler: ((request: Request) => Promise<Response>) | undefined;

export function handleEntryAction(request: Request): Promise<Response> {
  siteEntryActionHandler ??= createEntryActionHandler({ siteUrl: parseEnv().SITE_URL, secret: linkSecret() });
  return siteEntryActionHandler(request);
}
