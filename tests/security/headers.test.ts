import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { clientAddressOf, UNKNOWN_CLIENT } from "@/lib/security/client-address";
import { contentSecurityPolicy, inlineScriptHashes, securityHeaders } from "@/lib/security/headers";
import { loadPagePolicies } from "@/lib/security/page-policies";

describe("the client address", () => {
  it("is the socket's address when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddressOf("1.2.3.4", "203.0.113.5", 0)).toBe("203.0.113.5");
    expect(clientAddressOf(["1.2.3.4", "5.6.7.8"], "::ffff:203.0.113.5", 0)).toBe("203.0.113.5");
    expect(clientAddressOf(undefined, undefined, 0)).toBe(UNKNOWN_CLIENT);
  });

  it("is the entry the trusted proxies wrote, ignoring what the visitor put further left", () => {
    // visitor-written, then the client as our one proxy saw it; the socket is the proxy.
    expect(clientAddressOf("6.6.6.6, 198.51.100.7", "10.0.0.2", 1)).toBe("198.51.100.7");
    expect(clientAddressOf("6.6.6.6, 198.51.100.7, 10.0.0.9", "10.0.0.2", 2)).toBe("198.51.100.7");
    expect(clientAddressOf("198.51.100.7", "10.0.0.2", 1)).toBe("198.51.100.7");
    expect(clientAddressOf("2001:DB8::1", "10.0.0.2", 1)).toBe("2001:db8::1");
  });

  it("does not reach past the left end when fewer proxies wrote than configured", () => {
    expect(clientAddressOf(undefined, "10.0.0.2", 3)).toBe("10.0.0.2");
    expect(clientAddressOf(" , ", "10.0.0.2", 1)).toBe("10.0.0.2");
  });
});

describe("security headers", () => {
  it("hash each inline script the way browsers do, and skip script files", () => {
    const html = `<script src="/a.js" async=""></script><script>self.x=1</script><script id="r">a("é")</script><script>self.x=1</script>`;
    const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    expect(inlineScriptHashes(html)).toEqual([sha("self.x=1"), sha('a("é")')]);
  });

  it("production policy: own files and listed hashes only, no eval, no inline styles, no framing", () => {
    const policy = contentSecurityPolicy({ scriptHashes: ["'sha256-abc='"] });
    expect(policy).toContain("script-src 'self' 'sha256-abc='");
    expect(policy).toContain("style-src 'self';");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toMatch(/unsafe/);
  });

  it("send HSTS only in production", () => {
    expect(securityHeaders(true)["Strict-Transport-Security"]).toMatch(/^max-age=\d{8}/);
    expect(securityHeaders(false)["Strict-Transport-Security"]).toBeUndefined();
    expect(securityHeaders(true)).toMatchObject({ "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY" });
  });

  describe("page policies from a build", () => {
    const dist = mkdtempSync(path.join(tmpdir(), "csp-build-"));
    afterAll(() => rmSync(dist, { recursive: true, force: true }));
    const app = path.join(dist, "server", "app");
    mkdirSync(path.join(app, "nested"), { recursive: true });
    writeFileSync(path.join(app, "index.html"), "<script>home()</script>");
    writeFileSync(path.join(app, "about.html"), "<script>about()</script>");
    writeFileSync(path.join(app, "nested", "deep.html"), "<script>deep()</script>");
    writeFileSync(path.join(app, "_not-found.html"), "<script>missing()</script>");
    const policies = loadPagePolicies(dist);
    const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

    it("give each page its own scripts only", () => {
      expect(policies.pageCount).toBe(3);
      expect(policies.forPath("/")).toContain(hash("home()"));
      expect(policies.forPath("/")).not.toContain(hash("about()"));
      expect(policies.forPath("/about/")).toContain(hash("about()"));
      expect(policies.forPath("/nested/deep")).toContain(hash("deep()"));
    });

    it("give any other path the scripts of every page, the 404 page's included", () => {
      const fallback = policies.forPath("/no-such-page");
      for (const script of ["home()", "about()", "deep()", "missing()"]) expect(fallback).toContain(hash(script));
    });

    it("give the build's script and style files a short policy that allows nothing", () => {
      for (const file of ["/_next/static/chunks/0abc.js", "/_next/static/chunks/1def.css"]) {
        expect(policies.forPath(file)).toBe("default-src 'none'; frame-ancestors 'none'");
      }
      expect(policies.forPath("/_next/data/x.json")).toContain(hash("home()"));
    });
  });
});

describe("protection settings in the environment", () => {
  it("have safe defaults", () => {
    expect(parseEnv({})).toMatchObject({
      WAITLIST_MIN_SUBMIT_MS: 3_000,
      WAITLIST_RATE_LIMIT_MAX: 5,
      WAITLIST_RATE_LIMIT_WINDOW_SECONDS: 600,
      TRUST_PROXY_HOPS: 0,
    });
    expect(parseEnv({}).WAITLIST_SECRET).toBeUndefined();
  });

  it("name the variable that is wrong", () => {
    expect(() => parseEnv({ WAITLIST_SECRET: "short" })).toThrow(/WAITLIST_SECRET: must be at least 32 characters/);
    expect(() => parseEnv({ WAITLIST_RATE_LIMIT_MAX: "0" })).toThrow(/WAITLIST_RATE_LIMIT_MAX/);
    expect(() => parseEnv({ TRUST_PROXY_HOPS: "one" })).toThrow(/TRUST_PROXY_HOPS: must be a whole number/);
    expect(parseEnv({ WAITLIST_MIN_SUBMIT_MS: "0", TRUST_PROXY_HOPS: "2" })).toMatchObject({
      WAITLIST_MIN_SUBMIT_MS: 0,
      TRUST_PROXY_HOPS: 2,
    });
  });
});
