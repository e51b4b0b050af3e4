import { describe, expect, it } from "vitest";
import { BUSINESS_TYPE_VALUES, COMPANY_SIZE_VALUES } from "@/lib/content/signup-options";
import { fieldErrorsOf, normalizeEmail, waitlistSignupSchema, type WaitlistField } from "@/lib/waitlist/schema";
import { validSignup } from "../support/requests";

function errorFor(field: WaitlistField, value: unknown): string | undefined {
  const result = waitlistSignupSchema.safeParse(validSignup({ [field]: value }));
  return result.success ? undefined : fieldErrorsOf(result.error)[field];
}

function parsed(overrides: Parameters<typeof validSignup>[0]) {
  return waitlistSignupSchema.parse(validSignup(overrides));
}

describe("waitlist sign-up schema", () => {
  it("accepts a complete sign-up and trims every text field", () => {
    const signup = parsed({
      company_name: "  Bright Spark Electric ",
      contact_name: "\tLee Chen\n",
      email: "  Lee@BrightSpark.example ",
      phone: " 555.201.7788 ",
      notes: "  Two vans.  ",
    });
    expect(signup).toMatchObject({
      company_name: "Bright Spark Electric",
      contact_name: "Lee Chen",
      email: "Lee@BrightSpark.example",
      phone: "555.201.7788",
      notes: "Two vans.",
    });
  });

  it("drops keys it does not know", () => {
    expect(parsed({ is_admin: true } as never)).not.toHaveProperty("is_admin");
  });

  it.each(["company_name", "contact_name", "email", "phone", "business_type", "company_size"] as const)(
    "requires %s: missing, empty, blank or not a string",
    (field) => {
      for (const value of [undefined, "", "   ", 42, null, ["x"], { x: 1 }]) {
        expect(errorFor(field, value), `${field}=${JSON.stringify(value)}`).toBeDefined();
      }
    },
  );

  it("names each missing field in words a visitor understands", () => {
    const result = waitlistSignupSchema.safeParse({});
    expect(result.success).toBe(false);
    expect(fieldErrorsOf(result.error!)).toEqual({
      company_name: "Enter your company name.",
      contact_name: "Enter your name.",
      email: "Enter your email address.",
      phone: "Enter your phone number.",
      business_type: "Choose your business type.",
      company_size: "Choose your company size.",
    });
  });

  it("limits names to 120 characters", () => {
    expect(errorFor("company_name", "a".repeat(120))).toBeUndefined();
    expect(errorFor("company_name", "a".repeat(121))).toBe("Your company name must be 120 characters or fewer.");
    expect(errorFor("contact_name", "a".repeat(121))).toBe("Your name must be 120 characters or fewer.");
  });

  it.each(["owner@example.com", "first.last+tag@sub.example.co.uk", "o'brien@example.ie", "A_B-C@Example.COM"])(
    "accepts the email %s",
    (email) => expect(errorFor("email", email)).toBeUndefined(),
  );

  it.each([
    "plainaddress",
    "@example.com",
    "owner@",
    "owner@example",
    "owner@@example.com",
    "owner example@x.com",
    "owner@exa mple.com",
    ".owner@example.com",
    "ow..ner@example.com",
  ])("rejects the email %s", (email) => expect(errorFor("email", email)).toBe("Enter a valid email address, like owner@example.com."));

  it("limits email to 254 characters", () => {
    const domain = "@example.com";
    const local = (length: number) => Array.from({ length }, (_, i) => (i % 60 === 59 ? "." : "a")).join("");
    expect(errorFor("email", local(254 - domain.length) + domain)).toBeUndefined();
    expect(errorFor("email", local(255 - domain.length) + domain)).toBe("Your email address must be 254 characters or fewer.");
  });

  it.each(["5551234", "+1 (555) 201-7788", "555.201.7788", "+44 20 7946 0958", "123456789012345"])("accepts the phone number %s", (phone) =>
    expect(errorFor("phone", phone)).toBeUndefined(),
  );

  it("requires 7 to 15 digits in a phone number", () => {
    expect(errorFor("phone", "555-123")).toBe("Enter a phone number with 7 to 15 digits.");
    expect(errorFor("phone", "1234567890123456")).toBe("Enter a phone number with 7 to 15 digits.");
    expect(errorFor("phone", "(((---)))")).toBe("Enter a phone number with 7 to 15 digits.");
  });

  it.each(["555-CALL-NOW", "555 1234 ext 5", "555_123_4567", "+1 555 123 4567;", "５５５１２３４５６７"])(
    "rejects characters that are not part of a phone number: %s",
    (phone) => expect(errorFor("phone", phone)).toBe("Use only digits, spaces and + - . ( ) in your phone number."),
  );

  it("accepts every business type and company size of the spec, and nothing else", () => {
    expect(BUSINESS_TYPE_VALUES).toEqual(["hvac", "plumbing", "electrical", "general_contractor", "landscaping", "other"]);
    expect(COMPANY_SIZE_VALUES).toEqual(["1-5", "6-10", "11-25", "26-50", "50+"]);
    for (const value of BUSINESS_TYPE_VALUES) expect(errorFor("business_type", value)).toBeUndefined();
    for (const value of COMPANY_SIZE_VALUES) expect(errorFor("company_size", value)).toBeUndefined();
    for (const value of ["HVAC", "roofing", "general contractor", " hvac"]) {
      expect(errorFor("business_type", value)).toBe("Choose your business type.");
    }
    for (const value of ["0", "5", "1-10", "51+", "50"]) {
      expect(errorFor("company_size", value)).toBe("Choose your company size.");
    }
  });

  it("treats notes as optional, storing blank notes as none", () => {
    for (const notes of [undefined, null, "", "   "]) expect(parsed({ notes }).notes).toBeNull();
  });

  it("limits notes to 2,000 characters and to text", () => {
    expect(errorFor("notes", "n".repeat(2_000))).toBeUndefined();
    expect(errorFor("notes", "n".repeat(2_001))).toBe("Notes must be 2,000 characters or fewer.");
    expect(errorFor("notes", 12)).toBe("Notes must be text.");
  });

  it("normalises an email to its identity: trimmed and lower-cased", () => {
    expect(normalizeEmail(" Owner@Example.COM ")).toBe("owner@example.com");
    expect(normalizeEmail("owner@example.com")).toBe("owner@example.com");
  });
});
