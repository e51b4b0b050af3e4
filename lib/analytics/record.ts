/**
 * Counting visits into the day's figures (traffic_days, vital_days), exactly, however many
 * instances share the database: whether a visitor was already counted in a row of the day
 * is decided by a unique key in the same transaction as the count (visit_marks), never by a
 * process's memory. Events arriving in one turn of the event loop are written together
 * (lib/group-commit.ts): four statements a batch, whatever its size.
 */
import "server-only";
import { Prisma, whileBusy, WITHOUT_WAITING, type Database } from "../db";
import { GroupCommit, type Outcome } from "../group-commit";
import type { Step } from "./event";
import type { Device, Metric } from "./vitals";
import { markOf } from "./visitor";

/** The breakdowns each step is counted in; "site" has the one value "". */
type Dimension = "site" | "page" | "campaign" | "referrer";

/** One event, reduced to what is counted. Nothing in it names the visitor beyond the day. */
export type Counting = {
  day: string;
  /** The address's keyed hash (the per-address cap). */
  address: string;
  /** The day's visitor hash; null under Do Not Track or Global Privacy Control (counted as events only). */
  visitor: string | null;
  /** The page a speed measurement is of. */
  page: string;
  /** The funnel steps this event counts as, each on its page (a view of /join is also the form opened, on the page the visitor came from). */
  steps: readonly { step: Step; page: string }[];
  /** campaignKey() of the visit's utm_source, utm_medium and utm_campaign. */
  campaign: string;
  /** The referring site of a view ("(direct)" for none); undefined: a move between our own pages, not counted by referrer. */
  referrer?: string;
  vital?: { metric: Metric; device: Device; bucket: number };
};

/** A campaign as traffic_days keeps it: the three values as a JSON array, "direct"/"none" where absent (as signup_days). */
export function campaignKey(source?: string | null, medium?: string | null, campaign?: string | null): string {
  return JSON.stringify([source || "direct", medium || "none", campaign || "none"]);
}

export function campaignOfKey(key: string): { source: string; medium: string; campaign: string } {
  const [source = "direct", medium = "none", campaign = "none"] = JSON.parse(key) as string[];
  return { source, medium, campaign };
}

type TrafficRow = { day: string; step: Step; dimension: Dimension; value: string; events: number; visitors: number };

/** The rows of traffic_days one event adds to, in order: site, page, campaign, referrer (views from another site or none). */
function rowsOf(event: Counting): { step: Step; dimension: Dimension; value: string }[] {
  return event.steps.flatMap(({ step, page }) => [
    { step, dimension: "site" as const, value: "" },
    { step, dimension: "page" as const, value: page },
    { step, dimension: "campaign" as const, value: event.campaign },
    ...(step === "view" && event.referrer !== undefined ? [{ step, dimension: "referrer" as const, value: event.referrer }] : []),
  ]);
}

/**
 * How long a batch of visits keeps trying while another connection holds the write lock, between
 * tries (whileBusy) and not in SQLite's busy wait, so the site's connection stays free meanwhile.
 * Longer than SQLite's busy timeout (3 s, what a sign-up waits before its 503), because nobody
 * waits for a beacon's write and a lock held a few seconds (another instance's slow transaction
 * on a loaded machine, an operator's shell) should not lose the visits queued meanwhile. Not
 * longer: a graceful shutdown waits for this batch, and gives up on everything at 25 s.
 */
const VISITS_BUSY_WAIT_MS = 10_000;

async function writeBatch(database: Database, capPerAddress: number, batch: Counting[]): Promise<Outcome<boolean>[]> {
  return whileBusy(
    database,
    (db) =>
      db.$transaction(async (tx) => {
        // 1. The cap: each address's events of the day, this batch's added, the new totals returned.
        const perAddress = new Map<string, { day: string; address: string; events: number }>();
        for (const event of batch) {
          const key = `${event.day}|${event.address}`;
          const row = perAddress.get(key) ?? { day: event.day, address: event.address, events: 0 };
          row.events += 1;
          perAddress.set(key, row);
        }
        // The batch's first write takes the lock, WITHOUT_WAITING: it fails busy at once rather
        // than hold the site's one connection, and every sign-up behind it, in SQLite's busy wait.
        const totals = await tx.$queryRaw<{ day: string; address: string; events: unknown }[]>`${Prisma.raw(WITHOUT_WAITING)}
          INSERT INTO visit_addresses (day, address, events)
          SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(${JSON.stringify([...perAddress.values()].map((row) => [row.day, row.address, row.events]))}) WHERE true
          ON CONFLICT (day, address) DO UPDATE SET events = events + excluded.events
          RETURNING day, address, events`;
        // What each address may still add: the cap less what it had before this batch.
        const room = new Map(
          totals.map((row) => {
            const key = `${row.day}|${row.address}`;
            return [key, Math.max(0, capPerAddress - (Number(row.events) - perAddress.get(key)!.events))];
          }),
        );
        const counted = batch.map((event) => {
          const key = `${event.day}|${event.address}`;
          const left = room.get(key) ?? 0;
          if (left <= 0) return false;
          room.set(key, left - 1);
          return true;
        });

        // 2. Which visitors are new to a row today: their marks, inserted unless already there.
        const traffic = new Map<string, TrafficRow>();
        const marks = new Map<string, string>(); // `${day}|${mark}` -> the traffic row's key
        const vitals = new Map<string, [string, string, string, string, number, number]>();
        batch.forEach((event, i) => {
          if (!counted[i]) return;
          for (const row of rowsOf(event)) {
            const key = JSON.stringify([event.day, row.step, row.dimension, row.value]);
            const counting = traffic.get(key) ?? { day: event.day, ...row, events: 0, visitors: 0 };
            counting.events += 1;
            traffic.set(key, counting);
            if (event.visitor !== null) marks.set(`${event.day}|${markOf(event.visitor, key)}`, key);
          }
          if (event.vital) {
            const { metric, device, bucket } = event.vital;
            const key = JSON.stringify([event.day, event.page, device, metric, bucket]);
            const row = vitals.get(key) ?? [event.day, event.page, device, metric, bucket, 0];
            row[5] += 1;
            vitals.set(key, row);
          }
        });
        if (marks.size > 0) {
          const fresh = await tx.$queryRaw<{ day: string; mark: string }[]>`
            INSERT INTO visit_marks (day, mark)
            SELECT substr(value, 1, 10), substr(value, 12) FROM json_each(${JSON.stringify([...marks.keys()])}) WHERE true
            ON CONFLICT DO NOTHING
            RETURNING day, mark`;
          for (const { day, mark } of fresh) traffic.get(marks.get(`${day}|${mark}`)!)!.visitors += 1;
        }

        // 3. The day's figures.
        if (traffic.size > 0) {
          const rows = [...traffic.values()].map((row) => [row.day, row.step, row.dimension, row.value, row.events, row.visitors]);
          await tx.$executeRaw`
            INSERT INTO traffic_days (day, step, dimension, value, events, visitors)
            SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5 FROM json_each(${JSON.stringify(rows)}) WHERE true
            ON CONFLICT (day, step, dimension, value) DO UPDATE SET events = events + excluded.events, visitors = visitors + excluded.visitors`;
        }
        if (vitals.size > 0) {
          await tx.$executeRaw`
            INSERT INTO vital_days (day, page, device, metric, bucket, count)
            SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5 FROM json_each(${JSON.stringify([...vitals.values()])}) WHERE true
            ON CONFLICT (day, page, device, metric, bucket) DO UPDATE SET count = count + excluded.count`;
        }
        return counted.map((ok) => ({ ok }));
      }),
    VISITS_BUSY_WAIT_MS,
  );
}

type VisitCounterOptions = {
  database: () => Database;
  /** WAITLIST_VISIT_EVENTS_PER_ADDRESS: the most events one address adds to a day. */
  capPerAddress: number;
  /** Events that may wait for the next batch; more are refused (NotWritten "overloaded"). */
  maxPending?: number;
};

export class VisitCounter {
  private readonly writer: GroupCommit<Counting, boolean>;

  constructor(options: VisitCounterOptions) {
    this.writer = new GroupCommit((batch) => writeBatch(options.database(), options.capPerAddress, batch), {
      maxPending: options.maxPending,
    });
  }

  /** Counts an event; false when its address had reached the day's cap (accepted, not counted). */
  count(event: Counting): Promise<boolean> {
    return this.writer.submit(event);
  }

  drain(): Promise<void> {
    return this.writer.drain();
  }
}
