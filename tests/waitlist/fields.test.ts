/**
 * The fields of a sign-up come from one place (lib/waitlist/fields.ts): each is
 * stored in the column of its own name, and what people read of it (a choice's
 * label) is derived there for the email, the visitor's page and the operator's list.
 */
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { displayValue, SIGNUP_FIELD_NAMES, SIGNUP_FIELDS, shownFields } from "@/lib/waitlist/fields";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { VALID_SIGNUP } from "../fixtures/signup";
import { setUpTestDatabase } from "../support/database";

setUpTestDatabase();

describe("the fields of a sign-up", () => {
  it("are the schema's fields, each a column of waitlist_entries under its own name", async () => {
    expect(SIGNUP_FIELD_NAMES).toEqual(Object.keys(waitlistSignupSchema.shape));
    const columns = await getDatabase().$queryRaw<{ name: string }[]>`SELECT name FROM pragma_table_info('waitlist_entries')`;
    expect(columns.map((column) => column.name)).toEqual(expect.arrayContaining(SIGNUP_FIELD_NAMES));
  });

  it("shows a choice by its label and free text as typed", () => {
    expect(displayValue("business_type", "general_contractor")).toBe("General Contractor");
    expect(displayValue("company_size", "50+")).toBe("50+ employees");
    expect(displayValue("company_name", "50+")).toBe("50+");
    expect(displayValue("notes", null)).toBe("");
  });

  it("puts what each place shows in the table's order: only fixed choices in the email, all the visitor gave on their page", () => {
    const signup = waitlistSignupSchema.parse({ ...VALID_SIGNUP, source_page: "/careers" });
    expect(shownFields(signup, "inEmail")).toEqual([
      ["Business type", "HVAC"],
      ["Company size", "6-10 employees"],
    ]);
    expect(SIGNUP_FIELD_NAMES.filter((field) => SIGNUP_FIELDS[field].inEmail)).toEqual(
      SIGNUP_FIELD_NAMES.filter((field) => "options" in SIGNUP_FIELDS[field]),
    );
    // Blank optional fields (the utm_* here) are left out.
    expect(shownFields(signup, "onVisitorPage").map(([label]) => label)).toEqual([
      "Company",
      "Name",
      "Email",
      "Phone",
      "Business type",
      "Company size",
      "Notes",
      "Joined from page",
    ]);
    expect(SIGNUP_FIELD_NAMES.filter((field) => SIGNUP_FIELDS[field].listColumn === null)).toEqual([
      "notes",
      "source_page",
      "utm_source",
      "utm_medium",
      "utm_campaign",
    ]);
  });
});
