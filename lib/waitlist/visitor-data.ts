/**
 * "Download my data" on the visitor's own page: everything the waitlist holds
 * about their entry, as a JSON file, behind the same signed link as the page
 * (lib/waitlist/entry-link.ts). What is left out, and why, is in the file itself.
 */
import "server-only";
import { getDatabase, type Database } from "../db";
import { timestamp } from "../time";
import { ApiError, retryLater } from "../http";
import { siteSecret } from "../security/secret";
import { visitorStanding } from "../follow-up/visitor-standing";
import { signupOf } from "./fields";
import { entryByLink, type ByLink } from "./visitor-entry";

/** What each kind of outbox row was, in words. */
const NOTIFICATIONS: Record<string, string> = {
  "email:created": "the confirmation email to your address",
  "email:invitation": "your invitation email",
  "email:link_again": "a new link to your page, which you asked for",
  "webhook:created": "a notice of your sign-up to FieldCrew's own systems",
  "webhook:status_changed": "a notice to FieldCrew's own systems that our follow-up with you moved on",
  "webhook:overdue": "a notice to FieldCrew's own systems that we had not reached you within 48 hours",
};

const NOT_INCLUDED =
  "Left out: the key in your link and the id of the security question you answered (they would let someone else use them), " +
  "and our internal ids. Our team's own notes from talking with you are not in this file: write to hello@fieldcrew.app and we will send them. " +
  "A keyed hash of your address may be kept after you leave, only so that we never email you again.";

type EntryDataResult = ByLink<Record<string, unknown>>;

/** The entry a signed link names, with what was owed and sent about it, as the visitor downloads it. */
async function loadEntryData(
  token: string,
  database: () => Database = getDatabase,
  secret = siteSecret(),
  now = new Date(),
): Promise<EntryDataResult> {
  const found = await entryByLink(
    token,
    secret,
    (publicId) =>
      database().waitlistEntry.findUnique({
        where: { publicId },
        include: {
          deliveries: { orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
          followUpEvents: { where: { kind: "state" }, orderBy: [{ at: "asc" }, { id: "asc" }], select: { at: true, toState: true } },
        },
      }),
    "visitor's data download",
  );
  if (found.state !== "found") return found;
  const { entry } = found;
  const at = (date: Date | null) => (date ? timestamp(date) : null);
  return {
    state: "found",
    entry: {
      about: "Everything the FieldCrew waitlist holds about your entry.",
      exported_at: timestamp(now),
      entry: {
        ...signupOf(entry),
        signed_up_at: at(entry.createdAt),
        // The privacy notice you joined under (/privacy); null if you joined before it existed.
        privacy_notice_version: entry.noticeVersion,
        email_confirmed_at: at(entry.confirmedAt),
        // How duplicates are recognised: the address in its canonical form (docs/operations.md).
        mailbox: entry.emailNormalized,
        duplicate_of_an_older_entry: entry.duplicateOf !== null,
      },
      // Where the team's follow-up stands, and when it moved (lib/follow-up/): states and dates only.
      follow_up: {
        state: entry.followUpState,
        where_you_stand: visitorStanding(entry)?.text ?? null,
        first_contacted_at: at(entry.firstContactedAt),
        invited_at: at(entry.invitedAt),
        changes: entry.followUpEvents.map((event) => ({ at: at(event.at), became: event.toState })),
      },
      notifications: entry.deliveries.map((delivery) => ({
        what: NOTIFICATIONS[`${delivery.kind}:${delivery.event}`] ?? delivery.kind,
        status: delivery.status,
        queued_at: at(delivery.createdAt),
        delivered_at: at(delivery.deliveredAt),
        attempts: delivery.attempts,
      })),
      not_included: NOT_INCLUDED,
    },
  };
}

/** What the visitor's page's download sends with every answer: its key never leaves as a Referer, never indexed. */
export const VISITOR_DATA_HEADERS = { "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex, nofollow" };

/** GET /waitlist/entry/<token>/data (public: the signed token is the key): the file, or why not. Never cached. */
export async function entryDataResponse(token: string, load = loadEntryData): Promise<Response> {
  const result = await load(token);
  if (result.state === "invalid") throw new ApiError("link_invalid", { detail: "Use the link in your confirmation email." });
  if (result.state === "gone") throw new ApiError("entry_gone", { detail: "We hold nothing about it." });
  if (result.state === "unavailable") throw new ApiError("temporarily_unavailable", { headers: retryLater() });
  const data = result.entry;
  // Indented: a person opens this file, not only a program.
  return new Response(`${JSON.stringify(data, null, 2)}\n`, {
    status: 200,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Disposition": 'attachment; filename="fieldcrew-waitlist-entry.json"',
    },
  });
}
