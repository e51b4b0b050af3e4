/**
 * `npm run db:seed -- --count 1000000`: fills the database DATABASE_URL names with
 * made-up sign-ups, so the console can be seen (and measured, bench/operator.ts)
 * with a full list: people and companies from @faker-js/faker, trades and sizes
 * in launch-like proportions, sources and campaigns, pages, confirmations, and
 * dates spread over the last --months months, busier towards now.
 *
 * Addresses are at *.example domains (reserved, never deliverable), and no
 * deliveries are owed for them. With --delivered, each has the history a
 * sign-up leaves in the outbox: its confirmation email, delivered seconds after
 * it joined (a million sign-ups, a million delivered rows: the launch-day
 * benchmark's history, docs/performance.md). A database that already has
 * sign-ups is left alone unless --append says to add to it: seeding the real
 * list by mistake would mix fake people into it.
 */
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { faker } from "@faker-js/faker";
import nextEnv from "@next/env";
import { createDatabase, Prisma } from "../lib/db";
import { databaseSettings, parseEnv } from "../lib/env";
import { indexAllEntries } from "../lib/console/search-index";
import { orderedUuid } from "../lib/ordered-id";
import { timestamp } from "../lib/time";
import { normalizeEmail } from "../lib/waitlist/schema";
import type { BusinessType, CompanySize } from "../lib/content/signup-options";

nextEnv.loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "10000" },
    months: { type: "string", default: "6" },
    append: { type: "boolean", default: false },
    seed: { type: "string", default: "42" },
    delivered: { type: "boolean", default: false },
  },
});
const total = Number(values.count);
const months = Number(values.months);
if (!Number.isInteger(total) || total < 1) throw new Error(`--count must be a positive whole number, not ${values.count}`);
if (!(months > 0)) throw new Error(`--months must be a positive number, not ${values.months}`);
faker.seed(Number(values.seed));

/** Weighted choice: [value, weight] pairs. */
function pick<T>(choices: readonly (readonly [T, number])[]): T {
  let roll = Math.random() * choices.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [value, weight] of choices) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return choices.at(-1)![0];
}

const TRADES: readonly (readonly [BusinessType, number])[] = [
  ["hvac", 26],
  ["plumbing", 24],
  ["electrical", 18],
  ["general_contractor", 14],
  ["landscaping", 12],
  ["other", 6],
];
const SIZES: readonly (readonly [CompanySize, number])[] = [
  ["1-5", 38],
  ["6-10", 26],
  ["11-25", 19],
  ["26-50", 10],
  ["50+", 7],
];
const TRADE_WORDS: Record<BusinessType, string[]> = {
  hvac: ["Heating & Air", "Heating & Cooling", "HVAC", "Comfort Systems", "Climate Control"],
  plumbing: ["Plumbing", "Plumbing & Drain", "Rooter", "Pipe Works", "Plumbing & Heating"],
  electrical: ["Electric", "Electrical Services", "Power & Light", "Electrical Contractors"],
  general_contractor: ["Construction", "Builders", "Contracting", "Home Improvement", "Renovations"],
  landscaping: ["Landscaping", "Lawn & Garden", "Outdoor Living", "Tree & Lawn", "Grounds"],
  other: ["Pest Control", "Pool Service", "Roofing", "Cleaning Co.", "Appliance Repair"],
};
/** [utm_source, utm_medium, campaigns] (null source: a direct visit). */
const SOURCES: readonly (readonly [[string | null, string | null, string[]], number])[] = [
  [[null, null, []], 34],
  [["google", "cpc", ["fall-hvac", "plumbers-search", "brand"]], 24],
  [["facebook", "social", ["trades-lookalike", "spring-launch"]], 14],
  [["linkedin", "social", ["owners-2026"]], 7],
  [["newsletter", "email", ["launch-week", "october-digest"]], 9],
  [["youtube", "video", ["demo-video"]], 5],
  [["partner", "referral", ["supply-house"]], 7],
];
const PAGES: readonly (readonly [string, number])[] = [
  ["/", 78],
  ["/about", 12],
  ["/careers", 3],
  ["/join", 7],
];
const NOTES = [
  "We run 4 trucks and schedule on a whiteboard.",
  "Need invoicing that syncs with QuickBooks.",
  "Looking to replace our current dispatch tool.",
  "Interested in the mobile app for techs.",
  "Seasonal business, busiest in summer.",
];

const COLUMNS = [
  "company_name",
  "contact_name",
  "email",
  "email_normalized",
  "phone",
  "business_type",
  "company_size",
  "notes",
  "created_at",
  "source_page",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "public_id",
  "confirmed_at",
  "follow_up_state",
  "closed_reason",
  "state_changed_at",
  "state_changed_by",
  "first_contacted_at",
  "invited_at",
  "overdue_at",
] as const;

const HOUR_MS = 3_600_000;
const SEED_OPERATOR = "seed (made-up follow-up)";

/**
 * A team that reaches most sign-ups in time: 85% of those past their 48 hours were contacted
 * (most within a day, some late), and some of those went on; the rest are still awaiting,
 * overdue (and already announced, so the overdue watch does not send a webhook for each).
 * Younger sign-ups: about 40% contacted so far.
 */
function followUp(created: number): (string | null)[] {
  const dueNow = now - created >= 48 * HOUR_MS;
  const reached = Math.random() < (dueNow ? 0.85 : 0.4);
  if (!reached) return ["awaiting", null, null, null, null, null, dueNow ? timestamp(new Date(created)) : null];
  const hoursTaken = Math.min(Math.random() < 0.8 ? Math.random() * 30 : 30 + Math.random() * 60, (now - created) / HOUR_MS);
  const contacted = timestamp(new Date(created + hoursTaken * HOUR_MS));
  const u = Math.random();
  const [state, reason] =
    u < 0.55 ? ["contacted", null] : u < 0.8 ? ["in_conversation", null] : u < 0.92 ? ["invited", null] : ["closed", pick(CLOSED)];
  return [state, reason, contacted, SEED_OPERATOR, contacted, state === "invited" ? contacted : null, null];
}

const CLOSED = [
  ["not_a_fit", 5],
  ["no_answer", 4],
  ["do_not_contact", 1],
] as const;

const now = Date.now();
const spanMs = months * 30 * 86_400_000;
/** Busier towards now: a launch list grows. u in [0,1) -> time, with density rising over the span. */
function signUpTime(u: number): number {
  return now - spanMs * (1 - Math.sqrt(u));
}

const usedEmails = new Set<string>();

function row(index: number): (string | null)[] {
  const trade = pick(TRADES);
  const first = faker.person.firstName();
  const last = faker.person.lastName();
  const company =
    Math.random() < 0.5
      ? `${last} ${faker.helpers.arrayElement(TRADE_WORDS[trade])}`
      : `${faker.location.city()} ${faker.helpers.arrayElement(TRADE_WORDS[trade])}`;
  const slug = company.toLowerCase().replace(/[^a-z0-9]+/g, "");
  let email = `${first}.${last}@${slug}.example`.toLowerCase().replace(/[^a-z0-9.@]/g, "");
  for (let n = 2; usedEmails.has(normalizeEmail(email)); n += 1)
    email = `${first}.${last}${n}@${slug}.example`.toLowerCase().replace(/[^a-z0-9.@]/g, "");
  const normalized = normalizeEmail(email);
  usedEmails.add(normalized);
  const [source, medium, campaigns] = pick(SOURCES);
  // Sorted times: rows are inserted oldest first, as a real list grows.
  const created = signUpTime(index / total + Math.random() / total);
  const confirmed = Math.random() < 0.62 ? created + Math.random() * 2 * 86_400_000 : null;
  return [
    company,
    `${first} ${last}`,
    email,
    normalized,
    faker.phone.number({ style: "national" }),
    trade,
    pick(SIZES),
    Math.random() < 0.2 ? faker.helpers.arrayElement(NOTES) : null,
    timestamp(new Date(created)),
    pick(PAGES),
    source,
    medium,
    source && campaigns.length > 0 ? faker.helpers.arrayElement(campaigns) : null,
    randomUUID(),
    confirmed !== null && confirmed < now ? timestamp(new Date(confirmed)) : null,
    ...followUp(created),
  ];
}

const database = createDatabase(databaseSettings(parseEnv()));
try {
  const existing = await database.waitlistEntry.count();
  if (existing > 0 && !values.append) {
    console.error(
      `The database already has ${existing} sign-ups; nothing was added. Seed an empty one (for example DATABASE_URL=file:./prisma/data/seed.db), or pass --append.`,
    );
    process.exit(1);
  }
  const started = performance.now();
  const BATCH = 5_000;
  const columns = Prisma.raw(COLUMNS.join(", "));
  const select = Prisma.raw(COLUMNS.map((_, i) => `value ->> ${i}`).join(", "));
  for (let start = 0; start < total; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, total - start) }, (_, i) => row(start + i));
    await database.$executeRaw`INSERT INTO waitlist_entries (${columns}) SELECT ${select} FROM json_each(${JSON.stringify(rows)})`;
    if (values.delivered) {
      // The batch's entries by their public ids: each one's confirmation, sent 5 s after it joined,
      // under an id in the order of writing, as the site's own are (lib/ordered-id.ts).
      await database.$executeRaw`
        INSERT INTO outbox (id, kind, entry_id, status, attempts, next_attempt_at, created_at, delivered_at, throttle_key, event)
        SELECT seeded.value ->> 1, 'email', entry.id, 'delivered', 1, entry.created_at, entry.created_at,
          strftime('%Y-%m-%dT%H:%M:%f+00:00', unixepoch(entry.created_at) + 5, 'unixepoch'), substr(entry.email_normalized, instr(entry.email_normalized, '@') + 1), 'created'
        FROM json_each(${JSON.stringify(rows.map((row) => [row[COLUMNS.indexOf("public_id")], orderedUuid()]))}) AS seeded JOIN waitlist_entries AS entry ON entry.public_id = seeded.value ->> 0`;
    }
    if ((start / BATCH) % 20 === 19) process.stderr.write(`  ${start + rows.length} of ${total}\n`);
  }
  // The console's search index, as the running site would fill it behind the sign-ups (in larger
  // passes: nobody waits for this database while it is seeded).
  await indexAllEntries(database, BATCH);
  // Made-up people are owed nothing: the worker's mark moves past them (lib/waitlist/signup-deliveries.ts).
  await database.$executeRaw`UPDATE signup_deliveries_state SET owed_up_to = (SELECT coalesce(max(id), 0) FROM waitlist_entries), owing = NULL WHERE id = 1`;
  console.log(
    `Added ${total} made-up sign-ups${values.delivered ? " with their delivered confirmations" : ""} over ${months} months in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
} finally {
  await database.$disconnect();
}
