/**
 * POST /api/waitlist, independent of Next.js so tests can call it with a plain
 * Request: body -> schema -> store -> a JSON answer. Every path answers JSON;
 * nothing the visitor sent ends up in a stack trace or a log line.
 */
import { API_ERRORS } from "./messages";
import { fieldErrorsOf, waitlistSignupSchema, type WaitlistSignup } from "./schema";
import { addToWaitlist } from "./store";

export const MAX_BODY_BYTES = 16 * 1024;
export const ALLOWED_METHODS = "POST";

type Body = Record<string, unknown>;

function reply(status: number, body: Body, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

export function methodNotAllowed(): Response {
  return reply(405, { error: API_ERRORS.methodNotAllowed }, { Allow: ALLOWED_METHODS });
}

function isJsonContentType(header: string | null): boolean {
  return header?.split(";")[0]?.trim().toLowerCase() === "application/json";
}

const TOO_LARGE = Symbol("too large");

/** Reads at most `limit` bytes, so an oversized body is refused without being buffered. */
async function readBody(request: Request, limit: number): Promise<string | typeof TOO_LARGE> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) return TOO_LARGE;
  if (!request.body) return "";

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return TOO_LARGE;
    }
    chunks.push(value);
  }
  // fatal: invalid UTF-8 is a bad request, not text with replacement characters.
  return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
}

function isPlainObject(value: unknown): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Removes what a visitor typed from text headed for the server log. */
function redact(text: string, signup: WaitlistSignup): string {
  const secrets = [signup.phone, signup.notes, signup.email].filter((value): value is string => !!value);
  return secrets.reduce((result, secret) => result.split(secret).join("[redacted]"), text);
}

function logFailure(requestId: string, error: unknown, signup?: WaitlistSignup): void {
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  console.error(
    `[waitlist] sign-up failed request_id=${requestId}` +
      (typeof code === "string" ? ` code=${code}` : "") +
      (signup ? ` business_type=${signup.business_type} company_size=${signup.company_size}` : "") +
      `\n${signup ? redact(detail, signup) : detail}`,
  );
}

export async function handleSignupRequest(request: Request): Promise<Response> {
  const requestId = crypto.randomUUID();
  let signup: WaitlistSignup | undefined;
  try {
    if (!isJsonContentType(request.headers.get("content-type"))) {
      return reply(415, { error: API_ERRORS.unsupportedMediaType });
    }

    let text: string | typeof TOO_LARGE;
    try {
      text = await readBody(request, MAX_BODY_BYTES);
    } catch (error) {
      // A TypeError here is malformed UTF-8; anything else is a broken upload.
      return reply(400, { error: error instanceof TypeError ? API_ERRORS.invalidJson : API_ERRORS.unreadableBody });
    }
    if (text === TOO_LARGE) return reply(413, { error: API_ERRORS.tooLarge });

    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return reply(400, { error: API_ERRORS.invalidJson });
    }
    if (!isPlainObject(data)) return reply(400, { error: API_ERRORS.notAnObject });

    const parsed = waitlistSignupSchema.safeParse(data);
    if (!parsed.success) {
      return reply(400, { error: API_ERRORS.invalidFields, fields: fieldErrorsOf(parsed.error) });
    }
    signup = parsed.data;

    const outcome = await addToWaitlist(signup);
    if (outcome === "duplicate") return reply(409, { error: API_ERRORS.duplicate });
    return reply(201, { ok: true });
  } catch (error) {
    logFailure(requestId, error, signup);
    return reply(500, { error: API_ERRORS.unexpected, request_id: requestId });
  }
}
