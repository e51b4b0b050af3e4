/**
 * The front door's headers for pages rendered per request (lib/site/front-door.ts), over a real
 * HTTP server, in production and in development. Next's handler is played by one that answers
 * with the policy it was handed in the request (Next puts that policy's nonce on the page's scripts).
 * A visitor's own page carries their key in its address: no Referer may leave it, in development too.
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, get, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, createBrotliDecompress, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { ENTRY_PAGE_PATH, JOIN_PATH, UNSUBSCRIBE_PAGE_PATH, UNSUBSCRIBE_PATH } from "@/lib/content/paths";
import { captureLog } from "@/lib/log";
import { parseEnv } from "@/lib/env";
import { securityHeaders } from "@/lib/security/headers";
import { developmentPolicies } from "@/lib/security/page-policies";
import { createFrontDoor } from "@/lib/site/front-door";
import type { InvalidEntryLinkPage } from "@/lib/site/invalid-entry-link";
import { siteSecret } from "@/lib/security/secret";
import { entryToken } from "@/lib/waitlist/entry-link";

const HANDED_POLICY = "x-test-handed-policy";
let server: ReturnType<typeof createServer> | undefined;

afterEach(async () => {
  server?.close();
  if (server) await once(server, "close");
  server = undefined;
});

type NextHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** The front door in front of a stand-in for Next's handler; its address. */
async function frontDoor(
  dev: boolean,
  invalidEntryLink?: InvalidEntryLinkPage,
  next: NextHandler = async (request, response) => {
    response.setHeader(HANDED_POLICY, String(request.headers["content-security-policy"] ?? "none"));
    response.end("page");
  },
): Promise<string> {
  const env = parseEnv({ ...process.env, SITE_URL: "http://localhost:3000" });
  server = createServer(
    createFrontDoor({ env, dev, policies: developmentPolicies(), headers: Object.entries(securityHeaders(!dev)), next, invalidEntryLink }),
  );
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const visitorPage = `${ENTRY_PAGE_PATH}/k3y-0f-th3-v1s1t0r`;

describe("pages rendered per request, in production", () => {
  it("a visitor's own page: a nonce policy of its own, handed to Next, no Referer, not indexed", async () => {
    const origin = await frontDoor(false);
    const [first, second] = [await fetch(origin + visitorPage), await fetch(origin + visitorPage)];
    const policy = first.headers.get("content-security-policy")!;
    expect(policy).toMatch(/script-src [^;]*'nonce-[A-Za-z0-9+/=]{24}'/);
    expect(policy).not.toContain("unsafe-inline");
    expect(first.headers.get(HANDED_POLICY)).toBe(policy);
    expect(second.headers.get("content-security-policy")).not.toBe(policy);
    expect(first.headers.get("referrer-policy")).toBe("no-referrer");
    expect(first.headers.get("x-robots-tag")).toBe("noindex, nofollow");
  });

  it("a form page: a nonce policy, never cached", async () => {
    const origin = await frontDoor(false);
    const answer = await fetch(origin + JOIN_PATH);
    expect(answer.headers.get("content-security-policy")).toMatch(/'nonce-/);
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });
});

describe("a visitor's link the site did not sign, in production", () => {
  const refusal: InvalidEntryLinkPage = { html: Buffer.from("<h1>This link is not valid</h1>"), policy: "the refusal page's own policy" };

  it("gets the prerendered refusal with a 404 and its policy, before Next, and no Referer leaves it", async () => {
    const origin = await frontDoor(false, refusal);
    for (const made of [
      visitorPage,
      `${ENTRY_PAGE_PATH}/${randomUUID()}.forged`,
      `${ENTRY_PAGE_PATH}/%3Cscript%3E`,
      `${ENTRY_PAGE_PATH}/a%2Fb`,
    ]) {
      const answer = await fetch(origin + made);
      expect(answer.status, made).toBe(404);
      expect(await answer.text()).toBe("<h1>This link is not valid</h1>");
      expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(answer.headers.get("content-security-policy")).toBe("the refusal page's own policy");
      expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
      expect(answer.headers.get("x-robots-tag")).toBe("noindex, nofollow");
      expect(answer.headers.get(HANDED_POLICY)).toBeNull();
    }
    const head = await fetch(origin + visitorPage, { method: "HEAD" });
    expect(head.status).toBe(404);
    expect(await head.text()).toBe("");
  });

  it("leaves a signed link, the data download and other methods to Next", async () => {
    const origin = await frontDoor(false, refusal);
    const signed = `${ENTRY_PAGE_PATH}/${entryToken(siteSecret(), randomUUID())}`;
    for (const [path, method] of [
      [signed, "GET"],
      [`${visitorPage}/data`, "GET"],
      [visitorPage, "OPTIONS"],
    ] as const) {
      const answer = await fetch(origin + path, { method });
      expect(answer.status, `${method} ${path}`).toBe(200);
      expect(await answer.text()).toBe("page");
    }
  });
});

describe("the request log", () => {
  it("names no token of any kind: the visitor's page, its download, the unsubscribe address and page, whole or cut short", async () => {
    const origin = await frontDoor(false);
    const publicId = randomUUID();
    const tokens = [entryToken(siteSecret(), publicId), entryToken(siteSecret(), publicId, "unsubscribe")];
    const paths = [
      `${ENTRY_PAGE_PATH}/${tokens[0]}`,
      `${ENTRY_PAGE_PATH}/${tokens[0]}/data`,
      `${UNSUBSCRIBE_PATH}/${tokens[1]}`,
      `${UNSUBSCRIBE_PAGE_PATH}/${tokens[1]}`,
      `${UNSUBSCRIBE_PAGE_PATH}/${tokens[1]!.slice(0, -5)}`,
      `/somewhere/else/${tokens[1]}`,
    ];
    const log = captureLog();
    try {
      for (const path of paths) await (await fetch(origin + path)).text();
    } finally {
      log.stop();
    }
    const routes = log.lines.filter((line) => line.msg === "request").map((line) => line.route);
    expect(routes).toEqual([
      `${ENTRY_PAGE_PATH}/:token`,
      `${ENTRY_PAGE_PATH}/:token/data`,
      `${UNSUBSCRIBE_PATH}/:token`,
      `${UNSUBSCRIBE_PAGE_PATH}/:token`,
      `${UNSUBSCRIBE_PAGE_PATH}/:token`,
      "/somewhere/else/:token",
    ]);
    expect(log.text()).not.toContain(publicId);
  });

  it("the unsubscribe page gets the visitor's page's headers: a nonce policy, no Referer, not indexed", async () => {
    const origin = await frontDoor(false);
    const answer = await fetch(`${origin}${UNSUBSCRIBE_PAGE_PATH}/${entryToken(siteSecret(), randomUUID(), "unsubscribe")}`);
    expect(answer.headers.get("content-security-policy")).toMatch(/'nonce-/);
    expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
    expect(answer.headers.get("x-robots-tag")).toBe("noindex, nofollow");
  });
});

describe("pages rendered per request, in development", () => {
  it("a visitor's own page keeps no Referer and not indexed, under the development policy (no nonce handed to Next)", async () => {
    const origin = await frontDoor(true);
    const answer = await fetch(origin + visitorPage);
    expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
    expect(answer.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(answer.headers.get("content-security-policy")).toBe(developmentPolicies().forPath(visitorPage));
    expect(answer.headers.get("content-security-policy")).not.toContain("'nonce-");
    expect(answer.headers.get(HANDED_POLICY)).toBe("none");
  });

  it("a form page is never cached", async () => {
    const origin = await frontDoor(true);
    expect((await fetch(origin + JOIN_PATH)).headers.get("cache-control")).toBe("no-store");
  });

  it("a prerendered page gets the site's headers and nothing of a per-request page's", async () => {
    const origin = await frontDoor(true);
    const answer = await fetch(`${origin}/about`);
    expect(answer.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(answer.headers.get("cache-control")).toBeNull();
  });
});

describe("refusals before Next", () => {
  it("are the site's text error answers: the sentence, its code in X-Error-Code, never cached", async () => {
    const origin = await frontDoor(false);
    const answer = await fetch(`${origin}/%E0%A4%A`);
    expect(answer.status).toBe(400);
    expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(answer.headers.get("x-error-code")).toBe("not_found");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await answer.text()).toBe("There is nothing here. That address is not valid.");
  });
});

describe("compression (lib/site/compression.ts)", () => {
  const page = `<!doctype html><main>${Array.from({ length: 400 }, (_, i) => `<p class="row">Row ${i} of the page</p>`).join("")}</main>`;
  const servePage: NextHandler = async (request, response) => {
    response.setHeader("Content-Type", "text/html; charset=utf-8");
    response.setHeader("Content-Length", Buffer.byteLength(page));
    response.end(request.method === "HEAD" ? undefined : page);
  };

  /** The answer's bytes as they came over the wire, not decoded (fetch would decode them). */
  function rawGet(
    url: string,
    headers: Record<string, string>,
    method = "GET",
  ): Promise<{ headers: IncomingMessage["headers"]; body: Buffer }> {
    return new Promise((resolve, reject) => {
      get(url, { headers, method }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => resolve({ headers: answer.headers, body: Buffer.concat(chunks) }));
      }).on("error", reject);
    });
  }

  it("a page goes out in Brotli to a browser that accepts it, gzip to one that takes only gzip, as it is to one that takes neither", async () => {
    const origin = await frontDoor(false, undefined, servePage);
    const browser = await rawGet(`${origin}/`, { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(browser.headers["content-encoding"]).toBe("br");
    expect(browser.headers["content-length"]).toBeUndefined();
    expect(browser.headers.vary).toContain("Accept-Encoding");
    expect(brotliDecompressSync(browser.body).toString()).toBe(page);
    expect(browser.body.length).toBeLessThan(page.length / 10);

    const gzipOnly = await rawGet(`${origin}/`, { "accept-encoding": "gzip" });
    expect(gzipOnly.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzipOnly.body).toString()).toBe(page);

    const neither = await rawGet(`${origin}/`, { "accept-encoding": "identity" });
    expect(neither.headers["content-encoding"]).toBeUndefined();
    expect(neither.body.toString()).toBe(page);
  });

  it("short answers and HEAD go out as they are", async () => {
    const short: NextHandler = async (_request, response) => {
      response.setHeader("Content-Type", "application/json");
      response.end(JSON.stringify({ ok: true }));
    };
    const origin = await frontDoor(false, undefined, short);
    const answer = await rawGet(`${origin}/api/waitlist`, { "accept-encoding": "br, gzip" });
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(answer.body.toString())).toEqual({ ok: true });

    const pageOrigin = await frontDoor(false, undefined, servePage);
    const head = await rawGet(`${pageOrigin}/`, { "accept-encoding": "br, gzip" }, "HEAD");
    expect(head.headers["content-encoding"]).toBeUndefined();
    expect(head.body.length).toBe(0);
  });

  it("a streamed page reaches the browser part by part: each part Next flushes is sent before the next is written", async () => {
    let sendTheRest: () => void = () => {};
    const theRest = new Promise<void>((resolve) => (sendTheRest = resolve));
    const streamed: NextHandler = async (_request, response) => {
      response.setHeader("Content-Type", "text/html; charset=utf-8");
      response.write(page);
      // What Next does after each part of a streamed page (the middleware's flush).
      (response as ServerResponse & { flush(): void }).flush();
      await theRest;
      response.end("<p>the rest</p>");
    };
    const origin = await frontDoor(false, undefined, streamed);
    const decoded: Buffer[] = [];
    const firstPart = new Promise<void>((resolve, reject) => {
      get(`${origin}/`, { headers: { "accept-encoding": "br" } }, (answer) => {
        expect(answer.headers["content-encoding"]).toBe("br");
        const decoder = answer.pipe(createBrotliDecompress());
        decoder.on("data", (chunk: Buffer) => {
          decoded.push(chunk);
          if (Buffer.concat(decoded).length === Buffer.byteLength(page)) resolve();
        });
        decoder.on("end", () => decoded.push(Buffer.from("<end>")));
      }).on("error", reject);
    });
    // The first part arrives whole while the handler still holds the rest back.
    await firstPart;
    expect(Buffer.concat(decoded).toString()).toBe(page);
    sendTheRest();
    await expect.poll(() => Buffer.concat(decoded).toString()).toBe(`${page}<p>the rest</p><end>`);
  });
});
