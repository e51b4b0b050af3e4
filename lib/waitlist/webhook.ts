/**
 * Tells another system about each new sign-up: a JSON POST to
 * WAITLIST_WEBHOOK_URL, signed the Standard Webhooks way (webhook-id,
 * webhook-timestamp, webhook-signature; https://www.standardwebhooks.com), so a
 * receiver can check it with any Standard Webhooks library. The outbox worker
 * (lib/outbox/worker.ts) calls it after the sign-up is stored and answered,
 * and retries it; docs/operations.md says how a receiver checks the signature.
 */
import "server-only";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Webhook } from "standardwebhooks";
import type { WaitlistEntry } from "../generated/prisma/client";
import type { Attempted, Channel, Delivery } from "../outbox/worker";
import { entryRecord } from "./fields";

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
function webhookBody(delivery: Pick<Delivery, "event" | "payload">, entry: WaitlistEntry): string {
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

type Answer = { status: number } | { failed: "timeout" | "deadline" | "connection" };

/**
 * One POST over a kept-alive connection (node:http; fetch cost several times the CPU per post at
 * launch volume, docs/performance.md). Ends at `timeoutMs` or when `deadline` aborts; a redirect
 * is an answer like any other, not followed.
 */
function post(
  agent: HttpAgent,
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  deadline: AbortSignal,
): Promise<Answer> {
  return new Promise((resolve) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    let settled = false;
    const settle = (answer: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      deadline.removeEventListener("abort", onDeadline);
      resolve(answer);
    };
    const request = send(
      url,
      { method: "POST", agent, headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) } },
      (response) => {
        // Read to the end, so the connection can carry the next post.
        response.resume();
        response.on("end", () => settle({ status: response.statusCode ?? 0 }));
        response.on("error", () => settle({ failed: "connection" }));
      },
    );
    const onDeadline = () => {
      settle({ failed: "deadline" });
      request.destroy();
    };
    const timer = setTimeout(() => {
      settle({ failed: "timeout" });
      request.destroy();
    }, timeoutMs);
    deadline.addEventListener("abort", onDeadline, { once: true });
    request.on("error", () => settle({ failed: "connection" }));
    request.end(body);
  });
}

export function webhookChannel(options: WebhookOptions): Channel {
  const { timeoutMs = 5_000 } = options;
  const url = new URL(options.url);
  const signer = new Webhook(options.secret);
  const now = options.now ?? Date.now;
  const agent = new (url.protocol === "https:" ? HttpsAgent : HttpAgent)({ keepAlive: true, maxSockets: 64 });

  return async function deliverWebhook(delivery: Delivery, entry: WaitlistEntry, deadline: AbortSignal): Promise<Attempted> {
    let body: string;
    try {
      body = webhookBody(delivery, entry);
    } catch (error) {
      return { delivered: false, retry: false, problem: error instanceof Error ? error.message : String(error) };
    }
    const sentAt = new Date(now());
    const answer = await post(
      agent,
      url,
      {
        "Content-Type": "application/json",
        "User-Agent": "FieldCrew-Waitlist-Webhook/2",
        // The same on every attempt, so a receiver can drop a repeat it already processed.
        "webhook-id": delivery.id,
        "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
        "webhook-signature": signer.sign(delivery.id, sentAt, body),
      },
      body,
      timeoutMs,
      deadline,
    );
    if ("failed" in answer) {
      if (answer.failed === "deadline") return { delivered: false, retry: true, problem: "cut off at the attempt's deadline" };
      return {
        delivered: false,
        retry: true,
        problem: answer.failed === "timeout" ? `no answer within ${timeoutMs} ms` : "connection failed",
      };
    }
    if (answer.status >= 200 && answer.status < 300) return { delivered: true };
    return { delivered: false, retry: isRetryable(answer.status), problem: `HTTP ${answer.status}` };
  };
}
