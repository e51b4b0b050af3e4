/**
 * The waitlist's arithmetic security check (spec section 5): +, - or × with
 * both operands from 1 to 10, and the larger operand first for subtraction so
 * the answer is never negative.
 */
export const OPERAND_MIN = 1;
export const OPERAND_MAX = 10;
export const OPERATORS = ["+", "-", "×"] as const;

export type Operator = (typeof OPERATORS)[number];
export type Challenge = { left: number; right: number; operator: Operator };

type Random = () => number;

function pick<T>(items: readonly T[], random: Random): T {
  return items[Math.floor(random() * items.length)]!;
}

function operand(random: Random): number {
  return OPERAND_MIN + Math.floor(random() * (OPERAND_MAX - OPERAND_MIN + 1));
}

export function createChallenge(random: Random = Math.random): Challenge {
  const operator = pick(OPERATORS, random);
  const a = operand(random);
  const b = operand(random);
  if (operator === "-") return { left: Math.max(a, b), right: Math.min(a, b), operator };
  return { left: a, right: b, operator };
}

/** A challenge that differs from `previous`, for the regenerate button. */
export function createDifferentChallenge(previous: Challenge, random: Random = Math.random): Challenge {
  for (;;) {
    const next = createChallenge(random);
    if (next.left !== previous.left || next.right !== previous.right || next.operator !== previous.operator) {
      return next;
    }
  }
}

export function solve({ left, right, operator }: Challenge): number {
  switch (operator) {
    case "+":
      return left + right;
    case "-":
      return left - right;
    case "×":
      return left * right;
  }
}

/** How the question reads on screen, e.g. "7 × 3". */
export function questionOf({ left, right, operator }: Challenge): string {
  return `${left} ${operator === "-" ? "−" : operator} ${right}`;
}

/** Whether what the visitor typed is the answer: a whole number, spaces around it allowed. */
export function isCorrectAnswer(challenge: Challenge, typed: string): boolean {
  const trimmed = typed.trim();
  return /^-?\d+$/.test(trimmed) && Number(trimmed) === solve(challenge);
}
