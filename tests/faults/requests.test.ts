/**
 * Faults that arrive with a request, against the production server (server.ts
 * on a build) and a real SQLite file: bodies far over any route's size, paths
 * that are not valid percent-encoding, a restart without WAITLIST_SECRET, and
 * what the log says (and must never say) about requests.
 */
import { spawnSync } from "node:child_process";
import { request as httpRequest } from "node:http";
import { statSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtSiteUrl } from "@/lib/site/build-record";
import { ensureBuild, freshDatabase, serverEntry, startSiteServer, type SiteServer } from "@/bench/support/site-server";
import { solve } from "@/lib/waitlist/challenge";
import { secretFileOf } from "@/lib/security/secret";
import { entryToken } from "@/lib/waitlist/entry-link";
import { uniqueEmail, VALID_SIGNUP } from "../fixtures/signup";
import { logLines, sendOversizedBody } from "./support";

const MIB = 1024 * 1024;

let server: SiteServer;
let databaseFile: string;

beforeAll(async () => {
  ensureBuild();
  databaseFile = freshDatabase("faults-requests");
  server = await startSiteServer({
    port: 3261,
    databaseFile,
    output: true,
    env: { WAITLIST_SECRET: "faults-requests-secret-0123456789abcdefgh", WAITLIST_MIN_SUBMIT_MS: "0", TRUST_PROXY_HOPS: "1" },
  });
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

/** A GET of `path` exactly as written (fetch would normalise some of these). */
function getRaw(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${server.url}/`, { path, method: "GET" }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode!));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("a 90 MB body to every POST route", () => {
  // Each route with what it needs to get as far as reading the body.
  const routes: [string, Record<string, string>][] = [
    ["/api/waitlist", { "content-type": "application/json" }],
    ["/api/waitlist/entry", { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" }],
    ["/api/waitlist/challenge", { "content-type": "application/json" }],
    ["/api/health", { "content-type": "application/json" }],
    ["/api/bench/floor", { "content-type": "application/json" }],
  ];

  // Each route's code loaded once with an ordinary request, so what is measured is the upload alone.
  beforeAll(async () => {
    for (const [path, headers] of routes)
      await (await fetch(`${server.url}${path}`, { method: "POST", headers, body: "{}" })).arrayBuffer();
  });

  it.each(routes)("%s: with its size declared, refused before it is sent, memory flat", async (path, headers) => {
    const before = (await server.memoryAfterGc()).rss;
    const answer = await sendOversizedBody(`${server.url}${path}`, { bytes: 90 * MIB, declared: true, headers });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.status).toBe(413);
    expect(answer.sentBytes).toBeLessThan(16 * MIB); // answered long before the upload could finish
    expect((await server.memoryAfterGc()).rss - before).toBeLessThan(40);
  });

  it.each(routes)("%s: sent without a declared size (chunked), cut off as it arrives, memory flat", async (path, headers) => {
    const before = (await server.memoryAfterGc()).rss;
    const answer = await sendOversizedBody(`${server.url}${path}`, { bytes: 90 * MIB, declared: false, headers });
    // Refused by the server's body gate before any route sees it (hostile-clients.test.ts tries every kind of route).
    expect(answer.status).toBe(413);
    expect(answer.sentBytes).toBeLessThan(16 * MIB);
    expect((await server.memoryAfterGc()).rss - before).toBeLessThan(40);
  });
});

describe("malformed addresses", () => {
  const paths = [
    "/%",
    "/%E0%A4%A",
    "/waitlist/entry/%E0%A4%A",
    "/waitlist/entry/%",
    "/waitlist/entry/%00",
    "/waitlist/entry/..%2f..%2fetc%2fpasswd",
    `/waitlist/entry/${"a".repeat(4_000)}`,
    "/api/waitlist/%ZZ",
    "/api/waitlist/challenge?previous=%ZZ",
    "/about/%C0%AF",
    "/careers%",
    "/?utm_source=%E0%A4%A",
    "//",
    "/%2e%2e/%2e%2e/",
  ];

  it.each(paths)("%s answers 400 or 404, never 500", async (path) => {
    const status = await getRaw(path);
    expect(status, path).toBeLessThan(500);
    if (status >= 400) expect([400, 404]).toContain(status);
  });

  it("logs a bad path as a malformed_url fault", () => {
    expect(server.output()).toMatch(/"fault":"malformed_url"/);
  });
});

describe("the log", () => {
  it("has one JSON line per request with its id, route, status and duration, and no email, name or entry token", async () => {
    const challenge = (await (await fetch(`${server.url}/api/waitlist/challenge`)).json()) as {
      token: string;
      challenge: Parameters<typeof solve>[0];
    };
    const email = `logged.${Date.now()}@privacy.example`;
    const response = await fetch(`${server.url}/api/waitlist`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.90" },
      body: JSON.stringify({
        ...VALID_SIGNUP,
        contact_name: "Rosalind Unlogged",
        email,
        notes: "Secret gate code 8812",
        challenge_token: challenge.token,
        challenge_answer: String(solve(challenge.challenge)),
      }),
    });
    expect(response.status).toBe(201);
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

    const token = entryToken("faults-requests-secret-0123456789abcdefgh", crypto.randomUUID());
    expect((await fetch(`${server.url}/waitlist/entry/${token}`)).status).toBe(200); // a valid link to an entry that is gone

    await expect.poll(() => logLines(server).some((line) => line.route === "/waitlist/entry/:token" && line.status === 200)).toBe(true);
    const lines = logLines(server);
    expect(lines.find((line) => line.request_id === requestId && line.msg === "request")).toMatchObject({
      method: "POST",
      route: "/api/waitlist",
      status: 201,
      ms: expect.any(Number),
      level: "info",
    });
    expect(lines).toContainEqual(expect.objectContaining({ route: "/waitlist/entry/:token", status: 200 }));
    const text = server.output();
    // The notes whole, not "8812" alone: request ids (hex) and timestamps can hold those digits.
    for (const secret of [
      email,
      "Rosalind",
      VALID_SIGNUP.company_name,
      VALID_SIGNUP.phone,
      "Secret gate code 8812",
      token,
      token.split(".")[0]!,
    ])
      expect(text).not.toContain(secret);
  });
});

describe("the site's secret without WAITLIST_SECRET", () => {
  it("is made once beside the database (mode 0600) and kept: a question issued before a restart is accepted after it", async () => {
    const file = freshDatabase("faults-secret");
    const env = { WAITLIST_SECRET: undefined, WAITLIST_MIN_SUBMIT_MS: "0" };
    const first = await startSiteServer({ port: 3262, databaseFile: file, env });
    let challenge: { token: string; challenge: Parameters<typeof solve>[0] };
    try {
      challenge = (await (await fetch(`${first.url}/api/waitlist/challenge`)).json()) as typeof challenge;
    } finally {
      await first.stop();
    }
    expect(statSync(secretFileOf(file)).mode & 0o777).toBe(0o600);

    const second = await startSiteServer({ port: 3262, databaseFile: file, env });
    try {
      const response = await fetch(`${second.url}/api/waitlist`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          ...VALID_SIGNUP,
          email: uniqueEmail("restart", "example.com"),
          challenge_token: challenge.token,
          challenge_answer: String(solve(challenge.challenge)),
        }),
      });
      expect(response.status).toBe(201);
    } finally {
      await second.stop();
    }
  }, 120_000);

  it("is required with a libSQL server: the server refuses to start and says what to set", async () => {
    const run = spawnSync(process.execPath, [...(await serverEntry()), "--port", "3263"], {
      env: {
        ...process.env,
        DATABASE_URL: "libsql://waitlist-example.turso.io",
        DATABASE_AUTH_TOKEN: "x",
        SITE_URL: builtSiteUrl() ?? "",
        WAITLIST_SECRET: "",
        HOSTNAME: "127.0.0.1",
      },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/WAITLIST_SECRET must be set with a libSQL\/Turso DATABASE_URL/);
  }, 70_000);
});
