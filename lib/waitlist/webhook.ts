/**
 * Tells another system about each new sign-up: a JSON POST to
 * WAITLIST_WEBHOOK_URL, signed with HMAC-SHA256, sent after the sign-up is
 * stored and without the visitor waiting for it. A failing or slow receiver
 * is retried a few times with a timeout per attempt, then given up on with a
 * log line; the sign-up itself is already safe in the database.
 * docs/operations.md says how a receiver checks the signature.
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { EntryRecord } from "./store";

export const SIGNATURE_HEADER = "X-FieldCrew-Signature";
export const DELIVERY_HEADER = "X-FieldCrew-Delivery";
export const EVENT_HEADER = "X-FieldCrew-Event";
export const SIGNUP_EVENT = "waitlist_entry.created";

export type WebhookOptions = {
  url: string;
  secret: string;
  /** Per attempt. */
  timeoutMs?: number;
  /** Waits before the 2nd, 3rd, ... attempt; its length is the number of retries. */
  retryDelaysMs?: readonly number[];
  fetchImpl?: typeof fetch;
  now?: () => number;
};

export type DeliveryResult = { delivered: boolean; attempts: number; deliveryId: string };

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the time is signed too, so an old delivery cannot be replayed as new. */
export function signatureFor(secret: string, timestampSeconds: number, body: string): string {
  const digest = createHmac("sha256", secret).update(`${timestampSeconds}.${body}`).digest("hex");
  return `t=${timestampSeconds},v1=${digest}`;
}

/** What a receiver does with the header (and what the tests do): signature right, and not older than `toleranceSeconds`. */
export function isValidSignature(
  secret: string,
  header: string | null | undefined,
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = Object.fromEntries((header ?? "").split(",").map((part) => part.split("=", 2) as [string, string]));
  const timestampSeconds = Number(parts.t);
  if (!Number.isInteger(timestampSeconds) || !parts.v1) return false;
  if (Math.abs(nowSeconds - timestampSeconds) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureFor(secret, timestampSeconds, body).split("v1=")[1]!, "hex");
  const given = Buffer.from(parts.v1, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Worth another try: the receiver was unreachable, too slow, overloaded or broken. */
function isRetryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A function that delivers one new entry. It returns the delivery's promise
 * for tests and never rejects; the route does not wait for it.
 */
export function createWebhookNotifier(options: WebhookOptions): (entry: EntryRecord) => Promise<DeliveryResult> {
  const { url, secret, timeoutMs = 5_000, retryDelaysMs = [1_000, 5_000, 30_000] } = options;
  const fetchImpl = options.fetchImpl ?? fetch;
  const now = options.now ?? Date.now;

  return async function notify(entry) {
    const deliveryId = randomUUID();
    const body = JSON.stringify({ id: deliveryId, event: SIGNUP_EVENT, entry });
    let problem = "";
    for (let attempt = 1; attempt <= retryDelaysMs.length + 1; attempt += 1) {
      if (attempt > 1) await sleep(retryDelaysMs[attempt - 2]!);
      try {
        const response = await fetchImpl(url, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "User-Agent": "FieldCrew-Waitlist-Webhook/1",
            [EVENT_HEADER]: SIGNUP_EVENT,
            // The same on every attempt, so a receiver can drop a repeat it already processed.
            [DELIVERY_HEADER]: deliveryId,
            [SIGNATURE_HEADER]: signatureFor(secret, Math.floor(now() / 1000), body),
          },
          body,
          signal: AbortSignal.timeout(timeoutMs),
          redirect: "error",
        });
        await response.body?.cancel();
        if (response.ok) return { delivered: true, attempts: attempt, deliveryId };
        problem = `HTTP ${response.status}`;
        if (!isRetryable(response.status)) return giveUp(deliveryId, entry.id, attempt, problem);
      } catch (error) {
        problem = error instanceof Error && error.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : "connection failed";
      }
    }
    return giveUp(deliveryId, entry.id, retryDelaysMs.length + 1, problem);
  };
}

function giveUp(deliveryId: string, entryId: number, attempts: number, problem: string): DeliveryResult {
  // The entry id lets an operator find the sign-up; nothing the visitor typed is logged.
  console.error(
    `[waitlist] webhook delivery failed entry_id=${entryId} delivery_id=${deliveryId} attempts=${attempts}: ${problem}`,
  );
  return { delivered: false, attempts, deliveryId };
}
