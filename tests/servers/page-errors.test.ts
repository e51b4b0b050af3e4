/**
 * A page that fails with a visitor's address in its error (issue 59): Next prints such an error
 * itself, outside the log's redaction. The production server (as `npm start` runs it) sends it
 * through the log, which masks the address: neither its standard output (the log) nor its
 * standard error holds it. The fault probe makes the console's search fail with an error that
 * quotes the query's values, as a library's error can. Needs a build.
 */
import { afterAll, describe, expect, it } from "vitest";
import { BENCH_SECRET, ensureBuild, freshDatabase, startSiteServer, type SiteServer } from "@/bench/support/site-server";

let server: SiteServer | undefined;
afterAll(async () => server?.stop());

describe("a page that fails with an address in its error", () => {
  it("is logged through the log's redaction: the address is on neither standard output nor standard error", async () => {
    ensureBuild();
    const file = freshDatabase("servers-page-errors");
    Object.assign(process.env, { DATABASE_URL: `file:${file}`, WAITLIST_SECRET: BENCH_SECRET });
    const { signedInOperator } = await import("../support/operator-session");
    const { cookie } = await signedInOperator("page-errors@fieldcrew.example");
    server = await startSiteServer({
      port: 3298,
      databaseFile: file,
      env: { WAITLIST_SECRET: BENCH_SECRET, FAULT_PROBE_FAIL_QUERIES_MATCHING: "waitlist_search" },
      preload: ["tests/support/fault-probe.cjs"],
      output: true,
    });
    const address = "dave.visitor@example.com";
    const page = await fetch(`${server.url}/operator/entries?q=${encodeURIComponent(address)}`, { headers: { cookie } });
    expect(page.status).toBe(500);
    await page.text();
    await expect.poll(() => server!.output(), { timeout: 5_000 }).toMatch(/"fault":"unexpected"/);
    const output = server.output();
    // The failure is in the log, with what it was and where, and the address masked.
    expect(output).toContain("fault probe: the query failed with");
    expect(output).toContain("[address]");
    expect(output).not.toContain(address);
    expect(server.errorOutput()).not.toContain(address);
  }, 120_000);
});
