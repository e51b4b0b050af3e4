/**
 * Tells another system about each new sign-up: a JSON POST to
 * WAITLIST_WEBHOOK_URL, signed the Standard Webhooks way (webhook-id,
 * webhook-timestamp, webhook-signature; https://www.standardwebhooks.com), so a
 * receiver can check it with any Standard Webhooks library. The outbox worker
 * (lib/outbox/worker.ts) calls it after the sign-up is stored and answered,
 * and retries it; docs/operations.md says how a receiver checks the signature.
 */
import "server-only";
import { Webhook } from "standardwebhooks";
import type { WaitlistEntry } from "../generated/prisma/client";
import type { Attempted, Channel, Delivery } from "../outbox/worker";
import { entryRecord } from "./store";

export const SIGNUP_EVENT = "waitlist_entry.created";
/** An operator changed the entry's follow-up state (lib/follow-up/changes.ts). */
export const STATUS_CHANGED_EVENT = "waitlist.entry.status_changed";
/** The entry passed its 48-hour deadline uncontacted (lib/follow-up/overdue.ts); sent once. */
export const OVERDUE_EVENT = "waitlist.entry.overdue";

/** The outbox's event names (outbox.event) and the webhook types they are sent as. */
const WEBHOOK_TYPES: Record<string, string> = { created: SIGNUP_EVENT, status_changed: STATUS_CHANGED_EVENT, overdue: OVERDUE_EVENT };

export type WebhookOptions = {
  url: string;
  /** `whsec_` and the key in base64, as Standard Webhooks libraries take it. */
  secret: string;
  /** Per attempt. */
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
  now?: () => number;
};

/**
 * The body is built from the stored entry and the row's own facts, so it is the same on
 * every attempt: `type`, `timestamp` and `data`, the payload shape Standard Webhooks
 * recommends. For a sign-up, `timestamp` is when it was stored and `data` the entry as the
 * operator tool exports it. For a follow-up event, `timestamp` is when it happened and `data`
 * the entry with `follow_up`: the facts fixed when the event was written (the old and new
 * state and who changed it; or the deadline that passed). Operators' notes are never sent.
 */
export function webhookBody(delivery: Pick<Delivery, "event" | "payload">, entry: WaitlistEntry): string {
  const type = WEBHOOK_TYPES[delivery.event];
  if (!type) throw new Error(`no webhook for event ${delivery.event}`);
  const data = entryRecord(entry);
  if (delivery.event === "created") return JSON.stringify({ type, timestamp: entry.createdAt.toISOString(), data });
  const followUp = JSON.parse(delivery.payload ?? "{}") as { at: string };
  return JSON.stringify({ type, timestamp: followUp.at, data: { ...data, follow_up: followUp } });
}

/** Worth another try: the receiver was unreachable, too slow, overloaded or broken. */
function isRetryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export function webhookChannel(options: WebhookOptions): Channel {
  const { url, timeoutMs = 5_000 } = options;
  const signer = new Webhook(options.secret);
  const fetchImpl = options.fetchImpl ?? fetch;
  const now = options.now ?? Date.now;

  return async function deliverWebhook(delivery: Delivery, entry: WaitlistEntry, deadline: AbortSignal): Promise<Attempted> {
    let body: string;
    try {
      body = webhookBody(delivery, entry);
    } catch (error) {
      return { delivered: false, retry: false, problem: error instanceof Error ? error.message : String(error) };
    }
    const sentAt = new Date(now());
    // Its own timeout, or the attempt's deadline (half the lease) if that comes first. A controller
    // of its own with a timer cleared at the end, not AbortSignal.timeout()/any(), which Node 20 keeps alive.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException("timed out", "TimeoutError")), timeoutMs);
    const onDeadline = () => controller.abort(deadline.reason);
    deadline.addEventListener("abort", onDeadline, { once: true });
    try {
      const response = await fetchImpl(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "FieldCrew-Waitlist-Webhook/2",
          // The same on every attempt, so a receiver can drop a repeat it already processed.
          "webhook-id": delivery.id,
          "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
          "webhook-signature": signer.sign(delivery.id, sentAt, body),
        },
        body,
        signal: controller.signal,
        redirect: "error",
      });
      await response.body?.cancel();
      if (response.ok) return { delivered: true };
      return { delivered: false, retry: isRetryable(response.status), problem: `HTTP ${response.status}` };
    } catch {
      if (deadline.aborted) return { delivered: false, retry: true, problem: "cut off at the attempt's deadline" };
      const timedOut = controller.signal.aborted;
      return { delivered: false, retry: true, problem: timedOut ? `no answer within ${timeoutMs} ms` : "connection failed" };
    } finally {
      clearTimeout(timer);
      deadline.removeEventListener("abort", onDeadline);
    }
  };
}
