/**
 * The security question as the server issues it: the question plus a token
 * that proves the server asked it. A token is `payload.signature`, both
 * base64url; the payload is JSON and the signature an HMAC-SHA256 of it.
 *
 * The payload is readable by anyone (the question is on screen anyway); what
 * the signature adds is that nobody can make up a question, change its
 * answer, move its times or extend its life. Single use is enforced where the
 * sign-up is stored (lib/waitlist/store.ts), not here.
 */
import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { orderedUuid } from "../ordered-id";
import { createChallenge, createDifferentChallenge, isCorrectAnswer, OPERATORS, type Challenge } from "./challenge";

/** How long a question can be answered. Long enough for a person who steps away for coffee. */
export const CHALLENGE_TTL_MS = 30 * 60 * 1000;

/** Tokens are about 200 characters; anything much longer is not one of ours. */
const MAX_TOKEN_LENGTH = 1_000;

const payloadSchema = z.object({
  /** Unique per token; stored with the sign-up it admits. */
  id: z.string().min(16).max(64),
  left: z.number().int(),
  right: z.number().int(),
  operator: z.enum(OPERATORS),
  /** When the visitor was first shown a question in this visit (ms since epoch), carried over by new questions. */
  started: z.number().int(),
  /** When this token stops being accepted (ms since epoch). */
  expires: z.number().int(),
});

type Payload = z.infer<typeof payloadSchema>;

type IssuedChallenge = {
  challenge: Challenge;
  token: string;
  expires_at: string;
};

type ChallengeCheck = { ok: true; id: string; startedAt: number } | { ok: false; reason: "invalid" | "expired" | "wrong_answer" };

function sign(secret: string, encodedPayload: string): Buffer {
  return createHmac("sha256", secret).update(encodedPayload).digest();
}

/** The payload of a token whose signature is ours, or undefined; expiry is not checked here. */
function readToken(secret: string, token: unknown): Payload | undefined {
  if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH) return undefined;
  const [encodedPayload, encodedSignature, ...rest] = token.split(".");
  if (!encodedPayload || !encodedSignature || rest.length > 0) return undefined;

  const expected = sign(secret, encodedPayload);
  const given = Buffer.from(encodedSignature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;

  try {
    const parsed = payloadSchema.safeParse(JSON.parse(Buffer.from(encodedPayload, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A new question and its token. When the visitor already had a question in
 * this visit (`previousToken`, ours even if expired), the new question differs
 * from it and the new token keeps its start time, so asking for another
 * question does not restart the clock that tells people from bots.
 */
export function issueChallenge(secret: string, now: number, previousToken?: string | null): IssuedChallenge {
  const previous = readToken(secret, previousToken);
  const challenge = previous ? createDifferentChallenge(previous) : createChallenge();
  const started = previous?.started;
  const payload: Payload = {
    id: orderedUuid(),
    ...challenge,
    started: started !== undefined && started <= now ? started : now,
    expires: now + CHALLENGE_TTL_MS,
  };
  const encodedPayload = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return {
    challenge,
    token: `${encodedPayload}.${sign(secret, encodedPayload).toString("base64url")}`,
    expires_at: new Date(payload.expires).toISOString(),
  };
}

/** The question a token of ours asks, while it can still be answered (to show it again); else undefined. */
export function liveQuestion(secret: string, token: unknown, now: number): Challenge | undefined {
  const payload = readToken(secret, token);
  if (!payload || now >= payload.expires) return undefined;
  return { left: payload.left, right: payload.right, operator: payload.operator };
}

/** Checks a token and the visitor's answer to it: signature, expiry, then the answer. */
export function checkChallenge(secret: string, token: unknown, answer: unknown, now: number): ChallengeCheck {
  const payload = readToken(secret, token);
  if (!payload) return { ok: false, reason: "invalid" };
  if (now >= payload.expires) return { ok: false, reason: "expired" };
  const typed = typeof answer === "number" ? String(answer) : answer;
  if (typeof typed !== "string" || !isCorrectAnswer(payload, typed)) return { ok: false, reason: "wrong_answer" };
  return { ok: true, id: payload.id, startedAt: payload.started };
}

/** GET /api/waitlist/challenge[?previous=TOKEN]: a new question, keeping the visit's start time. */
export function newQuestion(request: Request, services: { secret: string; now: () => number }): IssuedChallenge {
  const previous = new URL(request.url).searchParams.get("previous");
  return issueChallenge(services.secret, services.now(), previous && previous.length <= MAX_TOKEN_LENGTH ? previous : null);
}
