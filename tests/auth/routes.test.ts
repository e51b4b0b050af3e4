/**
 * /api/auth's own checks in front of better-auth (lib/auth/routes.ts): only the
 * endpoints the console uses, no posts from other sites, sign-in steps counted
 * by the shared rate limiter in the database, and a database fault as 503. The
 * library itself is stood in for by a handler that records what reached it; the
 * real library is exercised end to end in e2e/operator-*.spec.ts.
 */
import { describe, expect, it } from "vitest";
import type { Auth } from "@/lib/auth/auth";
import { createAuthRoute } from "@/lib/auth/routes";
import { DatabaseUnavailable, getDatabase } from "@/lib/db";
import { CLIENT_ADDRESS_HEADER } from "@/lib/security/client-address";
import { SharedRateLimiter } from "@/lib/security/rate-limit";
import { setUpTestDatabase } from "../support/database";

setUpTestDatabase();
const SITE = "http://localhost:3000";

function route(handler: (request: Request) => Promise<Response> = async () => new Response("reached the library")) {
  const reached: string[] = [];
  const auth = { handler: async (request: Request) => (reached.push(new URL(request.url).pathname), handler(request)) } as unknown as Auth;
  const limiter = new SharedRateLimiter({ max: 3, windowMs: 60_000, database: getDatabase });
  return { handle: createAuthRoute({ auth: () => auth, siteUrl: SITE, limiter }), reached };
}

const request = (path: string, init: { method?: string; address?: string; origin?: string } = {}) =>
  new Request(`${SITE}/api/auth${path}`, {
    method: init.method ?? "GET",
    headers: { [CLIENT_ADDRESS_HEADER]: init.address ?? "203.0.113.7", ...(init.origin ? { Origin: init.origin } : {}) },
  });

describe("/api/auth", () => {
  it("answers 404 to the library's endpoints the console does not use, before the library sees them", async () => {
    const { handle, reached } = route();
    for (const [method, path] of [
      ["POST", "/sign-up/email"],
      ["POST", "/update-user"],
      ["GET", "/list-sessions"],
      ["POST", "/delete-user"],
      ["GET", "/sign-out"],
    ] as const) {
      expect((await handle(request(path, { method, origin: SITE }))).status, path).toBe(404);
    }
    expect(reached).toEqual([]);
  });

  it("refuses a post from another site's page", async () => {
    const { handle, reached } = route();
    const response = await handle(request("/sign-out", { method: "POST", origin: "https://attacker.example" }));
    expect(response.status).toBe(403);
    expect(reached).toEqual([]);
    expect((await handle(request("/sign-out", { method: "POST", origin: SITE }))).status).toBe(200);
  });

  it("counts the first step of each sign-in per address, in the database, and says when to come back", async () => {
    const { handle, reached } = route();
    for (let i = 0; i < 3; i++) expect((await handle(request("/passkey/generate-authenticate-options"))).status).toBe(200);
    const limited = await handle(request("/sign-in/magic-link", { method: "POST", origin: SITE }));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(reached).toHaveLength(3);
    // Another address has its own count; a step that finishes a ceremony is not counted.
    expect((await handle(request("/passkey/generate-authenticate-options", { address: "198.51.100.9" }))).status).toBe(200);
    expect((await handle(request("/passkey/verify-authentication", { method: "POST", origin: SITE }))).status).toBe(200);
    expect(await getDatabase().rateLimitWindow.count({ where: { key: { startsWith: "operator-sign-in " } } })).toBe(2);
  });

  it("answers a database fault with 503 and Retry-After", async () => {
    const { handle } = route(async () => {
      throw new DatabaseUnavailable("the database thread died", "database_worker_died");
    });
    const response = await handle(request("/get-session"));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBeTruthy();
    expect(await response.text()).not.toContain("thread");
  });
});
