/**
 * How long each sign-up field may be. In a module of its own, without zod, so
 * that code on every page (lib/waitlist/source.ts) can use it without pulling
 * the schema into the pages' first download.
 */
export const LIMITS = {
  name: 120,
  email: 254,
  phone: 32,
  notes: 2_000,
  phoneDigitsMin: 7,
  phoneDigitsMax: 15,
  sourcePage: 300,
  utm: 200,
} as const;
