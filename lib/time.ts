/** ISO 8601 in UTC, the form the Prisma adapter writes DateTime in (docs/operations.md), so text comparison sorts by time. */
export function timestamp(date: Date = new Date()): string {
  return date.toISOString().replace("Z", "+00:00");
}
