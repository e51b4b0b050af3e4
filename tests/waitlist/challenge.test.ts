import { describe, expect, it } from "vitest";
import {
  createChallenge,
  createDifferentChallenge,
  isCorrectAnswer,
  OPERAND_MAX,
  OPERAND_MIN,
  questionOf,
  solve,
} from "@/lib/waitlist/challenge";

const SAMPLES = 20_000;

describe("the math challenge", () => {
  const samples = Array.from({ length: SAMPLES }, () => createChallenge());

  it("uses +, - and × and nothing else, each of them often", () => {
    const counts = new Map<string, number>();
    for (const { operator } of samples) counts.set(operator, (counts.get(operator) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(["+", "-", "×"].sort());
    for (const count of counts.values()) expect(count).toBeGreaterThan(SAMPLES / 4);
  });

  it("keeps both operands whole numbers from 1 to 10, reaching both ends", () => {
    const seen = new Set<number>();
    for (const { left, right } of samples) {
      for (const operand of [left, right]) {
        expect(Number.isInteger(operand)).toBe(true);
        expect(operand).toBeGreaterThanOrEqual(OPERAND_MIN);
        expect(operand).toBeLessThanOrEqual(OPERAND_MAX);
        seen.add(operand);
      }
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("puts the larger number first in a subtraction, so the result is never negative", () => {
    const subtractions = samples.filter((challenge) => challenge.operator === "-");
    expect(subtractions.length).toBeGreaterThan(0);
    for (const challenge of subtractions) expect(challenge.left).toBeGreaterThanOrEqual(challenge.right);
    for (const challenge of samples) expect(solve(challenge)).toBeGreaterThanOrEqual(0);
  });

  it("solves and reads each operator correctly", () => {
    expect(solve({ left: 7, right: 3, operator: "+" })).toBe(10);
    expect(solve({ left: 7, right: 3, operator: "-" })).toBe(4);
    expect(solve({ left: 7, right: 3, operator: "×" })).toBe(21);
    expect(questionOf({ left: 7, right: 3, operator: "×" })).toBe("7 × 3");
    expect(questionOf({ left: 7, right: 3, operator: "-" })).toBe("7 − 3");
  });

  it("accepts only the right whole-number answer", () => {
    const challenge = { left: 6, right: 4, operator: "×" } as const;
    expect(isCorrectAnswer(challenge, "24")).toBe(true);
    expect(isCorrectAnswer(challenge, " 24 ")).toBe(true);
    for (const typed of ["", "23", "24.0", "2 4", "twenty-four", "0x18", "24abc"]) {
      expect(isCorrectAnswer(challenge, typed), typed).toBe(false);
    }
  });

  it("regenerates to a different question", () => {
    for (const previous of samples.slice(0, 2_000)) {
      expect(createDifferentChallenge(previous)).not.toEqual(previous);
    }
  });
});
