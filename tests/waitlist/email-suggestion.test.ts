import { describe, expect, it } from "vitest";
import { suggestEmail } from "@/lib/waitlist/email-suggestion";

describe("the email suggestion", () => {
  it.each([
    ["jo@gmial.com", "jo@gmail.com"],
    ["jo@hotmial.com", "jo@hotmail.com"],
    ["jo@yaho.com", "jo@yahoo.com"],
    ["jo@outlok.com", "jo@outlook.com"],
    ["Jo.Smith@Gmail.con", "Jo.Smith@gmail.com"],
  ])("suggests a fix for %s: %s, keeping the name as typed", (typed, suggested) => {
    expect(suggestEmail(typed)).toBe(suggested);
  });

  it.each(["jo@gmail.com", "dana@northwind.example", "pat@acme-plumbing.com", "jo@gmail", "jo@", "not an address"])(
    "says nothing for %s (right, a company's own domain, or not finished)",
    (typed) => {
      expect(suggestEmail(typed)).toBeNull();
    },
  );
});
