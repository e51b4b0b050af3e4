/** ISO 8601 in UTC, the form the Prisma adapter writes DateTime in (docs/operations.md), so text comparison sorts by time. */
export function timestamp(date: Date = new Date()): string {
  return date.toISOString().replace("Z", "+00:00");
}

/** The UTC day a moment falls in, as YYYY-MM-DD: how the site's daily counts and the operators' dates name a day. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The UTC day `days` after (or, negative, before) the day `day` names. */
export function utcDayPlus(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000));
}

/** What `within` gives for work still unsettled at its limit. */
export const LATE = Symbol("late");

/**
 * What `work` settles to (a rejection rethrown), or LATE if it has not settled within `ms`: the
 * caller answers at its limit and the work goes on unwatched. The timer is cleared either way.
 */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([work, new Promise<typeof LATE>((resolve) => (timer = setTimeout(() => resolve(LATE), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
