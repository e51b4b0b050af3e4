/**
 * How the team keeps the 48-hour promise, for the overview: of the entries whose
 * deadline passed in a period, how many were contacted within their 48 hours, and
 * the median time from sign-up to first contact (of those contacted, whenever).
 * An entry's deadline falls exactly two UTC calendar days after its sign-up day, so
 * the periods are counted in days of deadline: the last 7 and 30 (today included),
 * and 8 weeks of 7 for the chart. Entries still inside their 48 hours are left out
 * until their deadline passes, so the share is never flattered by them.
 */
import "server-only";
import type { Database } from "../db";
import { timestamp } from "../waitlist/store";
import { RESPONSE_MS } from "./states";

export type PromiseFigures = {
  /** Entries whose deadline passed in the period. */
  due: number;
  contacted: number;
  /** Contacted within 48 hours of signing up. */
  inTime: number;
  /** inTime / due, or null when nothing was due. */
  shareInTime: number | null;
  /** Hours from sign-up to first contact, the median of those contacted; null when none was. */
  medianHours: number | null;
};

export type WeekFigures = PromiseFigures & { from: string; to: string };
export type FollowUpMetrics = { last7: PromiseFigures; last30: PromiseFigures; weeks: WeekFigures[] };

export const CHART_WEEKS = 8;
const DAY_MS = 86_400_000;

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

function median(sorted: number[]): number | null {
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

type Day = { due: number; contacted: number; inTime: number; hours: number[] };

function figuresOf(days: Day[]): PromiseFigures {
  const due = days.reduce((sum, day) => sum + day.due, 0);
  const contacted = days.reduce((sum, day) => sum + day.contacted, 0);
  const inTime = days.reduce((sum, day) => sum + day.inTime, 0);
  const hours = days.flatMap((day) => day.hours).sort((a, b) => a - b);
  return { due, contacted, inTime, shareInTime: due === 0 ? null : inTime / due, medianHours: median(hours) };
}

export async function followUpMetrics(database: Database, now = new Date()): Promise<FollowUpMetrics> {
  const today = Date.parse(`${dayOf(now)}T00:00:00Z`);
  const days = CHART_WEEKS * 7;
  // Deadlines from the first day of the chart to now: sign-ups two days earlier, up to 48 hours ago.
  const from = timestamp(new Date(today - (days - 1) * DAY_MS - 2 * DAY_MS));
  const until = timestamp(new Date(now.getTime() - RESPONSE_MS));
  const [counts, contacts] = await Promise.all([
    database.$queryRaw<{ day: string; due: bigint | number; contacted: bigint | number }[]>`
      SELECT substr(created_at, 1, 10) AS day, count(*) AS due, count(first_contacted_at) AS contacted
      FROM waitlist_entries WHERE created_at >= ${from} AND created_at <= ${until}
      GROUP BY day`,
    database.$queryRaw<{ day: string; hours: number }[]>`
      SELECT substr(created_at, 1, 10) AS day, (julianday(first_contacted_at) - julianday(created_at)) * 24 AS hours
      FROM waitlist_entries WHERE created_at >= ${from} AND created_at <= ${until} AND first_contacted_at IS NOT NULL`,
  ]);
  // By deadline day: the sign-up day plus two.
  const byDeadline = new Map<string, Day>();
  const slot = (signupDay: string) => {
    const deadline = dayOf(new Date(Date.parse(`${signupDay}T00:00:00Z`) + 2 * DAY_MS));
    let day = byDeadline.get(deadline);
    if (!day) byDeadline.set(deadline, (day = { due: 0, contacted: 0, inTime: 0, hours: [] }));
    return day;
  };
  for (const row of counts) Object.assign(slot(row.day), { due: Number(row.due), contacted: Number(row.contacted) });
  for (const row of contacts) {
    const day = slot(row.day);
    // To the second: julianday's floating point is a few microseconds off.
    const hours = Math.round(row.hours * 3600) / 3600;
    day.hours.push(hours);
    if (hours <= RESPONSE_MS / 3_600_000) day.inTime += 1;
  }
  const span = (first: number, count: number) =>
    Array.from({ length: count }, (_, i) => byDeadline.get(dayOf(new Date(today - (first + i) * DAY_MS)))).filter((day): day is Day => day !== undefined);
  const weeks = Array.from({ length: CHART_WEEKS }, (_, w): WeekFigures => {
    const newest = (CHART_WEEKS - 1 - w) * 7;
    return { ...figuresOf(span(newest, 7)), from: dayOf(new Date(today - (newest + 6) * DAY_MS)), to: dayOf(new Date(today - newest * DAY_MS)) };
  });
  return { last7: figuresOf(span(0, 7)), last30: figuresOf(span(0, 30)), weeks };
}
