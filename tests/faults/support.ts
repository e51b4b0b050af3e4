/** What the fault tests share: oversized uploads, sign-up loops that record every answer, thread counts. */
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { uniqueSignupBody } from "@/bench/support/signups";

/**
 * Uploads `bytes` of body (declared in Content-Length, or chunked), a chunk at
 * a time with a turn of the event loop between, and returns the answer's status
 * with how much had been sent when it arrived. The upload stops as soon as the
 * answer comes; a connection the server closes after answering is expected.
 */
export async function sendOversizedBody(
  url: string,
  options: { bytes: number; declared: boolean; headers: Record<string, string> },
): Promise<{ status: number; sentBytes: number }> {
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  let sent = 0;
  let failure: Error | null = null;
  const request = httpRequest(url, {
    method: "POST",
    headers: { ...options.headers, ...(options.declared ? { "content-length": String(options.bytes) } : {}) },
  });
  const answer = new Promise<{ status: number; sentBytes: number }>((resolve) => {
    request.on("response", (response) => {
      const result = { status: response.statusCode!, sentBytes: sent };
      response.resume();
      response.on("end", () => resolve(result));
      response.on("error", () => resolve(result));
    });
  });
  let answered = false;
  void answer.then(() => (answered = true));
  // The server may close the connection right after answering: a write error then is expected.
  request.on("error", (error) => void (failure = error));
  while (!answered && !failure && sent < options.bytes) {
    sent += chunk.length;
    if (!request.write(chunk)) {
      let settle = () => {};
      await Promise.race([
        new Promise<void>((resolve) => (settle = resolve) && request.once("drain", settle).once("close", settle)),
        answer,
      ]);
      request.off("drain", settle).off("close", settle);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!answered && !failure) request.end();
  const result = await Promise.race([answer, new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000))]);
  request.destroy();
  if (!result) throw failure ?? new Error("no answer within 10 s of the upload");
  return result;
}

/** One sign-up's answer; status 0 when no answer came, with `error` saying why. */
export type Answer = {
  email: string;
  status: number;
  /** From sending to the whole answer, as the client saw it. */
  ms: number;
  retryAfter: string | null;
  /** The server's id for the request (X-Request-Id), under which its log has the server's own time. */
  requestId?: string;
  error?: string;
};

/**
 * `loops` parallel loops posting valid, distinct sign-ups until `until()` says stop,
 * each from its own client address (so the rate limit is not what answers).
 */
export async function signUpWhile(url: string, until: () => boolean, loops = 8): Promise<Answer[]> {
  const answers: Answer[] = [];
  let sequence = 0;
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (!until()) answers.push(await signUpOnce(url, `198.51.100.${1 + (sequence++ % 250)}`));
    }),
  );
  return answers;
}

export async function signUpOnce(url: string, address = "198.51.100.1", tag = "fault"): Promise<Answer> {
  const { email, body } = uniqueSignupBody(tag);
  const started = performance.now();
  try {
    const response = await fetch(`${url}/api/waitlist`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": address },
      body,
      // A bound, so a server that never answers fails the test with a reason instead of hanging it.
      signal: AbortSignal.timeout(60_000),
    });
    await response.arrayBuffer();
    return {
      email,
      status: response.status,
      ms: performance.now() - started,
      retryAfter: response.headers.get("retry-after"),
      requestId: response.headers.get("x-request-id") ?? undefined,
    };
  } catch (failure) {
    return { email, status: 0, ms: performance.now() - started, retryAfter: null, error: failureOf(failure) };
  }
}

/** What stopped a request, with its cause (undici's "fetch failed" alone says nothing). */
function failureOf(failure: unknown): string {
  const error = failure as Error & { cause?: Error & { code?: string } };
  return [error.message, error.cause?.code, error.cause?.message].filter(Boolean).join(": ");
}

/** A test server's log so far, a record per JSON line (what else it wrote, such as Next's own text, left out). */
export function logLines(server: { output(): string }): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The number of threads of a process, from /proc. */
export function threadsOf(pid: number): number {
  return Number(/Threads:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
}

export async function healthOf(url: string): Promise<{ status: number; ms: number; body: Record<string, unknown> }> {
  const started = performance.now();
  // Bounded as signUpOnce is: a server that never answers fails the test saying so.
  const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(30_000) });
  return { status: response.status, ms: performance.now() - started, body: (await response.json()) as Record<string, unknown> };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
