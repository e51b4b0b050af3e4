/**
 * One way to answer an error (lib/http.ts errorAnswer): every surface (the sign-up, visits,
 * sign-in, the console, the visitor's page) answers with a code from ERROR_CODES, in a JSON body
 * for programs or in X-Error-Code beside a sentence for a page's form, never cached.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as signUpRoute from "@/app/api/waitlist/route";
import * as entryRoute from "@/app/api/waitlist/entry/route";
import { POST as followUp } from "@/app/api/operator/follow-up/route";
import { GET as download } from "@/app/api/operator/export/route";
import { createVisitHandler } from "@/lib/analytics/handler";
import { VisitCounter } from "@/lib/analytics/record";
import { DailySalt } from "@/lib/analytics/visitor";
import type { Auth } from "@/lib/auth/auth";
import { createAuthRoute } from "@/lib/auth/routes";
import { getDatabase } from "@/lib/db";
import { ERROR_CODE_HEADER, ERROR_CODES, type ErrorCode } from "@/lib/http";
import { CLIENT_ADDRESS_HEADER } from "@/lib/security/client-address";
import { SharedRateLimiter } from "@/lib/security/rate-limit";
import { setUpTestDatabase } from "./support/database";
import { signedInOperator } from "./support/operator-session";

setUpTestDatabase();
const SITE = "http://localhost:3000";

/** The code an answer carries, and how: its JSON body's `code`, or the header of a text answer. */
async function codeOf(answer: Response): Promise<{ status: number; code: string | null; as: "json" | "text"; cached: boolean }> {
  const cached = answer.headers.get("cache-control") !== "no-store";
  if (answer.headers.get("content-type")?.startsWith("application/json")) {
    return { status: answer.status, code: ((await answer.json()) as { code?: string }).code ?? null, as: "json", cached };
  }
  return { status: answer.status, code: answer.headers.get(ERROR_CODE_HEADER), as: "text", cached };
}

const expectAnswer = async (answer: Response, status: number, code: ErrorCode, as: "json" | "text") => {
  const seen = await codeOf(answer);
  expect(seen).toEqual({ status, code, as, cached: false });
  expect(ERROR_CODES).toContain(seen.code);
};

describe("every error answer", () => {
  it("from the sign-up: JSON with its code", async () => {
    const wrongType = new Request(`${SITE}/api/waitlist`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: SITE },
      body: "{}",
    });
    await expectAnswer(await signUpRoute.POST(wrongType), 415, "unsupported_media_type", "json");
    await expectAnswer(await signUpRoute.GET(), 405, "method_not_allowed", "json");
  });

  it("from visits: the same codes as the sign-up's for the same faults (too_large, not payload_too_large)", async () => {
    const visits = createVisitHandler({
      siteUrl: SITE,
      counter: new VisitCounter({ database: getDatabase, capPerAddress: 2_000 }),
      salt: new DailySalt(getDatabase),
    });
    const beacon = (body: string, headers: Record<string, string> = {}) =>
      new Request(`${SITE}/api/visit`, {
        method: "POST",
        headers: { "content-type": "text/plain;charset=UTF-8", origin: SITE, ...headers },
        body,
      });
    await expectAnswer(
      await visits.post(beacon(JSON.stringify({ type: "view", page: "/", referrer: "x".repeat(2_000) }))),
      413,
      "too_large",
      "json",
    );
    await expectAnswer(await visits.post(beacon("{}", { origin: "https://elsewhere.example" })), 403, "foreign_origin", "json");
    await visits.drain();
  });

  it("from sign-in: JSON with its code", async () => {
    const auth = { handler: async () => new Response("reached the library") } as unknown as Auth;
    const handle = createAuthRoute({
      auth: () => auth,
      siteUrl: SITE,
      limiter: new SharedRateLimiter({ max: 3, windowMs: 60_000, database: getDatabase }),
    });
    const unused = new Request(`${SITE}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { [CLIENT_ADDRESS_HEADER]: "203.0.113.9", origin: SITE },
    });
    await expectAnswer(await handle(unused), 404, "not_found", "json");
  });

  it("from the console: the sentence as text for a form, the code in its header", async () => {
    const { cookie } = await signedInOperator("codes@fieldcrew.app");
    const form = (origin: string, type = "application/x-www-form-urlencoded") =>
      followUp(
        new Request(`${SITE}/api/operator/follow-up`, {
          method: "POST",
          headers: { "content-type": type, cookie, origin },
          body: "action=change",
        }),
      );
    await expectAnswer(await form("https://elsewhere.example"), 403, "foreign_origin", "text");
    await expectAnswer(await form(SITE, "application/json"), 415, "unsupported_media_type", "text");
    const elsewhere = await download(
      new Request(`${SITE}/api/operator/export?format=csv`, { headers: { cookie, "sec-fetch-site": "cross-site" } }),
    );
    await expectAnswer(elsewhere, 403, "started_elsewhere", "text");
    const signedOut = await download(new Request(`${SITE}/api/operator/export?format=csv`));
    await expectAnswer(signedOut, 401, "signed_out", "json");
  });

  it("from the visitor's page: the sentence as text, the code in its header", async () => {
    const wrongType = new Request(`${SITE}/api/waitlist/entry`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: SITE },
      body: "{}",
    });
    await expectAnswer(await entryRoute.POST(wrongType), 415, "unsupported_media_type", "text");
  });
});

describe("every route of app/api", () => {
  it("says in its file which guard protects it, and answers a method it does not take with 405, Allow and a code", async () => {
    const files = (readdirSync("app", { recursive: true }) as string[])
      .filter((file) => path.basename(file) === "route.ts")
      .map((file) => path.join("app", file));
    expect(files.length).toBeGreaterThanOrEqual(17);
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      expect(text, file).toMatch(/export const \{ GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS \} = route\(\{\s*\n\s*guard: /);
      const routeModule = (await import(`@/${file.replace(/\.ts$/, "")}`)) as Record<string, (request?: Request) => Promise<Response>>;
      const answer = await routeModule.OPTIONS!(new Request(`${SITE}/${file}`, { method: "OPTIONS" }));
      expect(answer.status, file).toBe(405);
      expect(answer.headers.get("allow"), file).toMatch(/^(GET, HEAD|POST|GET, HEAD, POST)$/);
      expect((await codeOf(answer)).code, file).toBe("method_not_allowed");
    }
  });
});
