/**
 * Duplicates and reused questions are decided by the database, not by the
 * process: several connections (as several server processes would have)
 * racing on one address or one token still store one row.
 */
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";
import { addToWaitlist } from "@/lib/waitlist/store";
import { countEntries, setUpTestDatabase } from "./support/database";
import { validSignup } from "./support/requests";

const { file } = setUpTestDatabase();

function withConnections<T>(count: number, work: (connections: ReturnType<typeof openDatabase>[]) => T): T {
  const connections = Array.from({ length: count }, () => openDatabase(file));
  try {
    return work(connections);
  } finally {
    connections.forEach((connection) => connection.close());
  }
}

const signup = (email: string) => waitlistSignupSchema.parse(validSignup({ email }));

describe("addToWaitlist across connections", () => {
  it("stores one row when five connections write one email in its variants", () => {
    const outcomes = withConnections(5, (connections) =>
      Array.from({ length: 50 }, (_, i) =>
        addToWaitlist(signup(i % 2 ? "Race@Example.com" : "race@example.com "), `token-${i}`, connections[i % 5]).outcome,
      ),
    );
    expect(outcomes.filter((outcome) => outcome === "created")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "duplicate")).toHaveLength(49);
    expect(countEntries()).toBe(1);
  });

  it("admits one sign-up per security-question token, whichever connection writes it", () => {
    const outcomes = withConnections(5, (connections) =>
      Array.from({ length: 20 }, (_, i) => addToWaitlist(signup(`reuse${i}@example.com`), "one-token", connections[i % 5]).outcome),
    );
    expect(outcomes[0]).toBe("created");
    expect(outcomes.slice(1)).toEqual(Array(19).fill("challenge_used"));
    expect(countEntries()).toBe(1);
  });

  it("stores every distinct sign-up written through five connections", () => {
    const outcomes = withConnections(5, (connections) =>
      Array.from({ length: 100 }, (_, i) => addToWaitlist(signup(`conn${i}@example.com`), `token-${i}`, connections[i % 5]).outcome),
    );
    expect(outcomes).toEqual(Array(100).fill("created"));
    expect(countEntries()).toBe(100);
  });
});
