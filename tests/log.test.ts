/**
 * The log never carries a visitor's values (lib/log.ts). Prisma's validation error, which a bug of
 * ours would throw, prints the call's arguments with their values in its message and stack, in
 * every error format; errorFields keeps what names the call and the fault, and nothing of the data.
 */
import { describe, expect, it, vi } from "vitest";
import { getDatabase } from "@/lib/db";
import { captureLog, errorFields, firstReport, sendConsoleErrorsToLog } from "@/lib/log";
import { setUpTestDatabase } from "./support/database";

setUpTestDatabase();

describe("an error logged with errorFields", () => {
  it("from Prisma's validation (a bug) names the call and what was wrong, without the values it was given", async () => {
    let failure: unknown;
    try {
      // A missing field and a wrong type, beside a visitor's address and name.
      await getDatabase().waitlistEntry.create({
        data: { email: "ana.private@example.com", phone: "+1 555 0100", companyName: 42 } as never,
      });
    } catch (error) {
      failure = error;
    }
    expect((failure as Error).name).toBe("PrismaClientValidationError");
    // What Prisma itself says, so this test fails if its message ever stops carrying the values.
    expect((failure as Error).message).toContain("ana.private@example.com");

    const { error } = errorFields(failure);
    expect(JSON.stringify(error)).not.toMatch(/ana\.private|555 0100/);
    expect(error.message).toMatch(/^Invalid `.+\.waitlistEntry\.create\(\)` invocation:? .*Argument `\w+`/);
    expect(error.stack).toMatch(/^PrismaClientValidationError: \(its arguments left out\)\n\s+at /);
  });

  it("of any other kind is logged whole", () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'signups')");
    expect(errorFields(bug).error).toEqual({ type: "TypeError", message: bug.message, stack: bug.stack });
  });
});

describe("what a library prints about a failure", () => {
  it("has any address in its message or stack masked, and keeps scoped package paths", () => {
    const failure = new Error('query failed with ["%dave.visitor+x@example.co.uk%","Ana <ana@fieldcrew.app>"]');
    failure.stack = `${failure.message}\n    at file:///work/node_modules/@vitest/runner/dist/index.js:1:1`;
    const { error } = errorFields(failure);
    expect(error.message).toBe('query failed with ["[address]%","Ana <[address]>"]');
    expect(error.stack).not.toMatch(/@example|@fieldcrew/);
    expect(error.stack).toContain("node_modules/@vitest/runner/dist/index.js");
  });

  it("through console.error (Next prints a page's error there) goes to the log, masked, once", async () => {
    const log = captureLog();
    const original = console.error;
    try {
      sendConsoleErrorsToLog();
      console.error("⨯", new Error("failed for dave@example.com"));
      console.error("a plain line about ana@fieldcrew.app");
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      console.error = original;
      log.stop();
    }
    expect(log.text()).not.toMatch(/dave@|ana@/);
    expect(log.lines.map((line) => [line.source, line.msg])).toEqual([
      ["console.error", "a plain line about [address]"],
      ["console.error", "⨯"],
    ]);
  });

  it("through console.error is not written again when another copy of the module logged it (Next's bundle)", async () => {
    // The built site has two copies of lib/log.ts: Next's bundle logs a page's error
    // (lib/site/request-errors.ts), then server.ts's console.error sink sees Next print it.
    const pageError = new Error("Failed to get session");
    expect(firstReport(pageError)).toBe(true);
    vi.resetModules();
    const otherCopy = await import("@/lib/log");
    expect(otherCopy.firstReport).not.toBe(firstReport);
    const log = captureLog();
    const original = console.error;
    try {
      otherCopy.sendConsoleErrorsToLog();
      console.error("⨯", pageError);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      console.error = original;
      log.stop();
    }
    expect(log.lines).toEqual([]);
  });
});
