/**
 * Duplicates are decided by the database, not by the process: several
 * connections (as several server processes would have) racing on one address
 * still store one row, and waiting writers queue instead of failing.
 */
import { describe, expect, it } from "vitest";
import { createPrismaClient } from "@/lib/db";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { countEntries, setUpTestDatabase } from "./support/database";
import { validSignup } from "./support/requests";

const { file } = setUpTestDatabase();

describe("addToWaitlist across connections", () => {
  it("stores one row when five connections race on one email", async () => {
    const clients = Array.from({ length: 5 }, () => createPrismaClient(file));
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          addToWaitlist(waitlistSignupSchema.parse(validSignup({ email: i % 2 ? "Race@Example.com" : "race@example.com " })), clients[i % 5]),
        ),
      );
      expect(outcomes.filter((outcome) => outcome === "created")).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === "duplicate")).toHaveLength(49);
      expect(await countEntries()).toBe(1);
    } finally {
      await Promise.all(clients.map((client) => client.$disconnect()));
    }
  });

  it("stores every distinct sign-up written through five connections at once", async () => {
    const clients = Array.from({ length: 5 }, () => createPrismaClient(file));
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          addToWaitlist(waitlistSignupSchema.parse(validSignup({ email: `conn${i}@example.com` })), clients[i % 5]),
        ),
      );
      expect(outcomes).toEqual(Array(100).fill("created"));
      expect(await countEntries()).toBe(100);
    } finally {
      await Promise.all(clients.map((client) => client.$disconnect()));
    }
  });
});
