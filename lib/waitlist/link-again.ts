/**
 * "Email me my link again" (/waitlist/link): a visitor who lost the confirmation
 * email asks for a new link to their own page. The answer is always the same
 * sentence, sent before anything about the address is looked up (the lookup and
 * the email are work done after the answer), so neither its words nor its timing
 * say whether the address is on the list. The link goes only to the address on
 * the list, through the outbox, like every email: inside the site's hourly caps
 * and the recipient domain's (MAIL_MAX_PER_HOUR, MAIL_MAX_PER_DOMAIN_PER_HOUR),
 * and at most once an hour and three times a day per address.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { temporaryKind, type Database } from "../db";
import { timestamp } from "../time";
import { errorFields, log } from "../log";
import type { DeliveryKind } from "../outbox/worker";
import { CLIENT_ADDRESS_HEADER, UNKNOWN_CLIENT } from "../security/client-address";
import type { RateLimiter } from "../security/rate-limit";
import { LINK_AGAIN_EVENT } from "./confirmation-email";
import { domainOf } from "../mail/address";
import { VISITOR_MESSAGES } from "./messages";
import { normalizeEmail, waitlistSignupSchema } from "./schema";

/** Per address: one an hour, three a day. */
const LINK_AGAIN_LIMITS = { perHour: 1, perDay: 3 } as const;

/** The one answer to every well-formed request, on the list or not. */
export const LINK_AGAIN_ANSWER =
  "If that address is on our waitlist, a new link to your page is on its way to it. It can take a few minutes to arrive, so check your spam folder too. For your security, we send at most one an hour.";

export const LINK_AGAIN_RATE_LIMITED = "Too many requests from your network. Please wait a few minutes and try again.";

export type LinkAgainState = { email: string; error?: string; answer?: string };

const HOUR_MS = 60 * 60 * 1000;

/**
 * Owes the address's entry a new link, unless it had one in the last hour or three in the
 * last day. One statement, so two requests at once cannot both slip under the limits. True
 * when a link is owed; false for an address not on the list, just as for one at its limit.
 */
export async function oweLinkAgain(database: Database, email: string, now = new Date()): Promise<boolean> {
  const address = normalizeEmail(email);
  const hourAgo = timestamp(new Date(now.getTime() - HOUR_MS));
  const dayAgo = timestamp(new Date(now.getTime() - 24 * HOUR_MS));
  const owed = await database.$executeRaw`
    INSERT INTO outbox (id, kind, entry_id, status, attempts, next_attempt_at, created_at, event, payload, throttle_key)
    SELECT ${randomUUID()}, 'email', entry.id, 'pending', 0, ${now}, ${now}, ${LINK_AGAIN_EVENT}, NULL, ${domainOf(address)}
    FROM waitlist_entries AS entry
    WHERE entry.email_normalized = ${address} AND entry.duplicate_of IS NULL AND entry.unsubscribed_at IS NULL AND entry.mail_suppressed_at IS NULL
      AND (SELECT count(*) FROM outbox AS sent WHERE sent.entry_id = entry.id AND sent.event = ${LINK_AGAIN_EVENT} AND sent.created_at > ${hourAgo}) < ${LINK_AGAIN_LIMITS.perHour}
      AND (SELECT count(*) FROM outbox AS sent WHERE sent.entry_id = entry.id AND sent.event = ${LINK_AGAIN_EVENT} AND sent.created_at > ${dayAgo}) < ${LINK_AGAIN_LIMITS.perDay}`;
  return owed > 0;
}

export type LinkAgainContext = {
  headers: Headers;
  limiter: RateLimiter;
  /** What the site delivers: without "email" (no SMTP_URL) nothing can be sent. */
  deliveries: readonly DeliveryKind[];
  deliverSoon: () => void;
  /** Runs work once the answer has gone out: Next's after(). */
  afterResponse: (work: () => Promise<void>) => void;
  database: () => Database;
  now?: Date;
};

/** One post of the page's form: the same answer for every well-formed address. */
export async function requestLinkAgain(form: FormData, context: LinkAgainContext): Promise<LinkAgainState> {
  const typed = form.get("email");
  const email = typeof typed === "string" ? typed : "";
  const parsed = waitlistSignupSchema.shape.email.safeParse(email);
  if (!parsed.success) return { email, error: parsed.error.issues[0]?.message };

  const now = context.now ?? new Date();
  // Every request counts against the network's sign-up attempts, so asking costs what joining does.
  const client = context.headers.get(CLIENT_ADDRESS_HEADER) ?? UNKNOWN_CLIENT;
  try {
    const decision = await context.limiter.attempt(client, now.getTime());
    if (!decision.allowed) return { email, error: LINK_AGAIN_RATE_LIMITED };
  } catch (error) {
    // The count could not be written (a locked or unreachable database): nothing was done.
    log.warn(
      { fault: temporaryKind(error) ?? "unexpected", ...errorFields(error) },
      "a link request could not be counted; the visitor can ask again",
    );
    return { email, error: VISITOR_MESSAGES.busyLinkAgain };
  }

  if (context.deliveries.includes("email")) {
    context.afterResponse(() =>
      oweLinkAgain(context.database(), parsed.data, now)
        .then((owed) => void (owed && context.deliverSoon()))
        .catch((error: unknown) =>
          log.warn({ fault: "link_again", ...errorFields(error) }, "owing a link asked for again failed; the visitor can ask again"),
        ),
    );
  }
  return { email: parsed.data, answer: LINK_AGAIN_ANSWER };
}
