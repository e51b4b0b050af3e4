/**
 * The log never carries a visitor's values (lib/log.ts). Prisma's validation error, which a bug of
 * ours would throw, prints the call's arguments with their values in its message and stack, in
 * every error format; errorFields keeps what names the call and the fault, and nothing of the data.
 */
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { errorFields } from "@/lib/log";
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
