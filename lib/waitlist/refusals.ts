/**
 * Counting sign-ups refused because of their address, so the team can see the
 * list's quality (`npm run waitlist -- stats`): per UTC day, reason and domain,
 * one row that a refusal adds one to. Only the domain is kept, never the address.
 */
import "server-only";
import type { Database } from "../db";
import { GroupCommit, type Outcome } from "../group-commit";
import { errorFields, log } from "../log";
import { utcDay } from "../time";

type RefusalReason = "disposable" | "denied" | "already_registered";

type Refusal = { day: string; reason: RefusalReason; domain: string };

/**
 * The refusals arriving in one turn of the event loop are counted by one
 * statement (lib/group-commit.ts): a flood of duplicates or throwaway addresses
 * costs a write per batch, not per request.
 */
async function countBatch(database: Database, batch: Refusal[]): Promise<Outcome<void>[]> {
  const rows = JSON.stringify(batch.map(({ day, reason, domain }) => [day, reason, domain]));
  await database.$executeRaw`
    INSERT INTO email_refusals (day, reason, domain, count)
    SELECT value ->> 0, value ->> 1, value ->> 2, count(*) FROM json_each(${rows}) GROUP BY 1, 2, 3
    ON CONFLICT (day, reason, domain) DO UPDATE SET count = count + excluded.count`;
  return batch.map(() => ({ ok: undefined }));
}

const counters = new WeakMap<Database, GroupCommit<Refusal, void>>();

/**
 * Adds one refusal. Counting must never change the visitor's answer: if the
 * database cannot take it now, the refusal is answered all the same and logged.
 */
export async function countRefusal(database: Database, reason: RefusalReason, domain: string, now = new Date()): Promise<void> {
  let counter = counters.get(database);
  if (!counter) {
    counter = new GroupCommit((batch) => countBatch(database, batch));
    counters.set(database, counter);
  }
  try {
    await counter.submit({ day: utcDay(now), reason, domain });
  } catch (error) {
    log.warn({ fault: "refusal_not_counted", reason, ...errorFields(error) }, "a refused sign-up could not be counted");
  }
}

export type RefusalCounts = {
  byReason: { reason: string; n: number }[];
  /** The domains refused most, with their reason. */
  topDomains: { reason: string; domain: string; n: number }[];
};

/** Most first; ties in a fixed order, so the output does not depend on the database's. */
const mostFirst =
  <Row extends { n: number }>(key: (row: Row) => string) =>
  (a: Row, b: Row) =>
    b.n - a.n || key(a).localeCompare(key(b));

/** Refusals since `since` (a UTC day, YYYY-MM-DD), by reason and by domain, most first. */
export async function refusalCounts(database: Database, since: string, topDomains = 10): Promise<RefusalCounts> {
  const groups = await database.emailRefusal.groupBy({ by: ["reason", "domain"], where: { day: { gte: since } }, _sum: { count: true } });
  const domains = groups.map((row) => ({ reason: row.reason, domain: row.domain, n: row._sum.count ?? 0 }));
  const perReason = new Map<string, number>();
  for (const row of domains) perReason.set(row.reason, (perReason.get(row.reason) ?? 0) + row.n);
  return {
    byReason: [...perReason].map(([reason, n]) => ({ reason, n })).sort(mostFirst((row) => row.reason)),
    topDomains: domains.sort(mostFirst((row) => `${row.domain} ${row.reason}`)).slice(0, topDomains),
  };
}
