/**
 * How the team keeps the 48-hour promise, for the overview: of the entries whose
 * deadline fell in a period, how many were contacted within their 48 hours, and
 * the median time from sign-up to first contact (of those contacted, whenever).
 * An entry's deadline falls exactly two UTC calendar days after its sign-up day,
 * so periods are whole days of deadline that are over: the last 7 and 30 days
 * before today, and 8 weeks of 7 for the chart. Read from two small tables the
 * database keeps by trigger (signup_days: sign-ups per day; follow_up_contacts:
 * first contacts per sign-up day and whole hours taken), so the figures cost the
 * same at a million entries; the median is to the whole hour.
 */
import "server-only";
import type { Database } from "../db";
import { FIGURES } from "../content/site";
import { utcDay } from "../time";

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
type FollowUpMetrics = { last7: PromiseFigures; last30: PromiseFigures; weeks: WeekFigures[] };

const CHART_WEEKS = 8;
const DAY_MS = 86_400_000;

type Day = { due: number; contacted: number; inTime: number; hours: Map<number, number> };

/** The median of counted values: the middle one, or the mean of the middle two. */
function median(hours: Map<number, number>): number | null {
  const sorted = [...hours.entries()].filter(([, n]) => n > 0).sort(([a], [b]) => a - b);
  const total = sorted.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const nth = (k: number) => {
    let seen = 0;
    for (const [value, n] of sorted) if ((seen += n) > k) return value;
    return sorted.at(-1)![0];
  };
  return total % 2 ? nth((total - 1) / 2) : (nth(total / 2 - 1) + nth(total / 2)) / 2;
}

function figuresOf(days: Day[]): PromiseFigures {
  const due = days.reduce((sum, day) => sum + day.due, 0);
  const contacted = days.reduce((sum, day) => sum + day.contacted, 0);
  const inTime = days.reduce((sum, day) => sum + day.inTime, 0);
  const hours = new Map<number, number>();
  for (const day of days) for (const [value, n] of day.hours) hours.set(value, (hours.get(value) ?? 0) + n);
  return { due, contacted, inTime, shareInTime: due === 0 ? null : inTime / due, medianHours: median(hours) };
}

export async function followUpMetrics(database: Database, now = new Date()): Promise<FollowUpMetrics> {
  const today = Date.parse(`${utcDay(now)}T00:00:00Z`);
  const days = CHART_WEEKS * 7;
  // Deadline days from `days` days ago to yesterday: sign-up days two earlier.
  const firstSignupDay = utcDay(new Date(today - (days + 2) * DAY_MS));
  const lastSignupDay = utcDay(new Date(today - 3 * DAY_MS));
  const [signups, contacts] = await Promise.all([
    database.$queryRaw<{ day: string; due: bigint | number }[]>`
      SELECT day, sum(signups) AS due FROM signup_days WHERE day >= ${firstSignupDay} AND day <= ${lastSignupDay} GROUP BY day`,
    database.followUpContact.findMany({ where: { day: { gte: firstSignupDay, lte: lastSignupDay }, contacts: { gt: 0 } } }),
  ]);
  // By deadline day: the sign-up day plus two.
  const byDeadline = new Map<string, Day>();
  const slot = (signupDay: string) => {
    const deadline = utcDay(new Date(Date.parse(`${signupDay}T00:00:00Z`) + 2 * DAY_MS));
    let day = byDeadline.get(deadline);
    if (!day) byDeadline.set(deadline, (day = { due: 0, contacted: 0, inTime: 0, hours: new Map() }));
    return day;
  };
  for (const row of signups) slot(row.day).due = Number(row.due);
  for (const row of contacts) {
    const day = slot(row.day);
    day.contacted += row.contacts;
    // Whole hours taken: 47 is within 48 hours, 48 (48:00 and later) is not.
    if (row.hours < FIGURES.responseHours) day.inTime += row.contacts;
    day.hours.set(row.hours, (day.hours.get(row.hours) ?? 0) + row.contacts);
  }
  // Deadline days `first` to `first + count - 1` days before yesterday.
  const span = (first: number, count: number) =>
    Array.from({ length: count }, (_, i) => byDeadline.get(utcDay(new Date(today - (first + i + 1) * DAY_MS)))).filter(
      (day): day is Day => day !== undefined,
    );
  const weeks = Array.from({ length: CHART_WEEKS }, (_, w): WeekFigures => {
    const newest = (CHART_WEEKS - 1 - w) * 7;
    return {
      ...figuresOf(span(newest, 7)),
      from: utcDay(new Date(today - (newest + 7) * DAY_MS)),
      to: utcDay(new Date(today - (newest + 1) * DAY_MS)),
    };
  });
  return { last7: figuresOf(span(0, 7)), last30: figuresOf(span(0, 30)), weeks };
}
