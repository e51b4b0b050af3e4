/**
 * `npm run waitlist -- <command>`: find, count, export and remove sign-ups
 * without writing SQL (docs/operations.md). This module parses arguments and
 * runs a command against an open database; main.ts wires it to the process.
 */
import "server-only";
import { once } from "node:events";
import { createWriteStream, existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import type { Writable } from "node:stream";
import { parseArgs } from "node:util";
import type { Database } from "../db";
import { parseEnv } from "../env";
import { refusedDomain, refusedDomainMessage } from "../waitlist/email-domains";
import { refusalCounts, type RefusalCounts } from "../waitlist/refusals";
import { normalizeEmail, waitlistSignupSchema } from "../waitlist/schema";
import { displayValue, SIGNUP_FIELD_NAMES, SIGNUP_FIELDS, type ListColumn } from "../waitlist/fields";
import { BUSINESS_TYPES, BUSINESS_TYPE_VALUES, COMPANY_SIZES, COMPANY_SIZE_VALUES } from "../content/signup-options";
import type { EntryRecord } from "../waitlist/fields";
import { recordAction, shellActor } from "../audit/trail";
import { readAnswer, UsageError, write, type CliIo } from "./cli-io";
import { backupCommand, BACKUP_USAGE, restoreCommand } from "./cli-backup";
import { auditCommand, operatorsCommand, OPERATOR_USAGE } from "./cli-console";
import { contactCommand, FOLLOW_UP_USAGE, queueCommand } from "./cli-follow-up";
import { exportText } from "./export";
import { utcDaySchema } from "../filters";
import { campaignFunnels, conversion, FUNNEL_STEPS, pageFunnels, pageViews, rangeOf, siteFunnel, WITHOUT_COUNTED_VISIT_NOTE, withoutCountedVisit, type DayRange, type Funnel, type FunnelStep } from "../analytics/report";
import { count, renderTable, terminalSafe, utcMinute, type Column } from "./format";
import { countEntries, deliveryCounts, findByEmail, findById, listDuplicates, iterateEntries, listDeliveries, listEntries, redeliver, removeById, stats, type DeliveryRow, type DeliveryStatus, type ListFilters } from "./queries";
import { type OperatorRecord } from "./list";
import { utcDay } from "../time";

export const USAGE = `Usage: npm run waitlist -- <command> [options]

Commands:
  list     Sign-ups, newest first
             --type TYPE        business type: ${BUSINESS_TYPE_VALUES.join(", ")}
             --size SIZE        company size: ${COMPANY_SIZE_VALUES.join(", ")}
             --since DATE       on or after this day (YYYY-MM-DD, UTC) or moment (ISO 8601)
             --search TEXT      in company name, contact name or email
             --confirmed yes|no whether the visitor confirmed their email
             --limit N|all      how many to show (default 50)
  stats    Totals, confirmed emails, removals, by business type, company size, source and
           page, per day for 30 days, addresses refused (why, and which domains), and the
           funnel from a visit to an invitation, for the site, per campaign and per page
             --from DAY --to DAY  the funnel's range (YYYY-MM-DD, UTC; default the last 28 days)
  export   Every sign-up with every field
             --format csv|json  required
             --out FILE         write to FILE instead of standard output
             --force            replace FILE if it exists
  duplicates  Entries kept as duplicates of an older one (one mailbox, several rows, from
           before one mailbox meant one entry), under the entry they duplicate
  check    Whether an address would be taken now, and if not, why
             --email ADDRESS    required
  remove   Delete one sign-up (and whatever was still to be sent about it)
             --email ADDRESS    the mailbox's entry (any spelling of the address), or
             --id N             one row by its id (a duplicate, from duplicates)
             --yes              do not ask for confirmation
  deliveries  Notifications owed to other systems: counts, and those not delivered
             --status pending|failed|all   which to list (default: failed and pending)
             --limit N          how many to list (default 50)
  redeliver   Send failed deliveries again, with a fresh set of attempts
             --id ID            one delivery (its id from deliveries)
             --all-failed       every failed delivery
${FOLLOW_UP_USAGE}${OPERATOR_USAGE}${BACKUP_USAGE}`;

export { UsageError, type CliIo } from "./cli-io";

const LIST_DEFAULT_LIMIT = 50;
const BAR_WIDTH = 30;


/** "/careers · google / cpc / spring", or "" when nothing is known. */
function sourceOf(entry: EntryRecord): string {
  const campaign = [entry.utm_source, entry.utm_medium, entry.utm_campaign].filter(Boolean).join(" / ");
  return [entry.source_page, campaign].filter(Boolean).join(" · ");
}

/** The list's columns for the fields that have one (lib/waitlist/fields.ts), in their order. */
function fieldColumns(): Column<OperatorRecord>[] {
  return SIGNUP_FIELD_NAMES.flatMap((field) => {
    const column: ListColumn | null = SIGNUP_FIELDS[field].listColumn;
    if (!column) return [];
    const { title, width, storedValue } = column;
    return [{ title, width, value: (e: OperatorRecord) => (storedValue ? (e[field] ?? "") : displayValue(field, e[field])) }];
  });
}

function parseFilters(values: Record<string, string | boolean | undefined>): { filters: ListFilters; limit: number | null } {
  const filters: ListFilters = {};
  const type = values.type as string | undefined;
  if (type !== undefined) {
    if (!(BUSINESS_TYPE_VALUES as readonly string[]).includes(type)) {
      throw new UsageError(`Unknown business type "${type}". Use one of: ${BUSINESS_TYPE_VALUES.join(", ")}.`);
    }
    filters.businessType = type;
  }
  const size = values.size as string | undefined;
  if (size !== undefined) {
    if (!(COMPANY_SIZE_VALUES as readonly string[]).includes(size)) {
      throw new UsageError(`Unknown company size "${size}". Use one of: ${COMPANY_SIZE_VALUES.join(", ")}.`);
    }
    filters.companySize = size;
  }
  const since = values.since as string | undefined;
  if (since !== undefined) {
    const date = /^\d{4}-\d{2}-\d{2}$/.test(since) ? new Date(`${since}T00:00:00Z`) : new Date(since);
    if (!/^\d{4}-\d{2}-\d{2}/.test(since) || Number.isNaN(date.getTime())) {
      throw new UsageError(`"${since}" is not a date. Use YYYY-MM-DD, for example --since 2026-11-01.`);
    }
    filters.since = date;
  }
  const search = (values.search as string | undefined)?.trim();
  if (search) filters.search = search;
  const confirmed = values.confirmed as string | undefined;
  if (confirmed !== undefined) {
    if (confirmed !== "yes" && confirmed !== "no") throw new UsageError(`--confirmed must be yes or no, not "${confirmed}".`);
    filters.confirmed = confirmed === "yes";
  }

  const limitText = (values.limit as string | undefined) ?? String(LIST_DEFAULT_LIMIT);
  if (limitText === "all") return { filters, limit: null };
  if (!/^[1-9]\d*$/.test(limitText)) throw new UsageError(`--limit must be a positive whole number or "all", not "${limitText}".`);
  return { filters, limit: Number(limitText) };
}

async function list(db: Database, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      type: { type: "string" },
      size: { type: "string" },
      since: { type: "string" },
      search: { type: "string" },
      confirmed: { type: "string" },
      limit: { type: "string" },
    },
  });
  const { filters, limit } = parseFilters(values);
  const { entries, total } = await listEntries(db, filters, limit);
  if (total === 0) {
    const anyAtAll = Object.keys(filters).length > 0 && (await countEntries(db)) > 0;
    await write(io.stdout, anyAtAll ? "No sign-ups match those filters.\n" : "No sign-ups yet. They will appear here as people join the waitlist.\n");
    return 0;
  }
  const columns: Column<OperatorRecord>[] = [
    { title: "Signed up (UTC)", width: 16, value: (e) => e.created_at.slice(0, 16).replace("T", " ") },
    ...fieldColumns(),
    { title: "Confirmed", width: 10, value: (e) => e.confirmed_at?.slice(0, 10) ?? "no" },
    { title: "Source", width: 32, value: sourceOf },
  ];
  await write(io.stdout, `${renderTable(columns, entries)}\n`);
  const shown = entries.length < total ? `Showing the newest ${count(entries.length)} of ${count(total)}` : `${count(total)}`;
  await write(io.stdout, `\n${shown} sign-up${total === 1 ? "" : "s"}${entries.length < total ? "; use --limit to see more" : ""}.\n`);
  return 0;
}

function breakdown(title: string, rows: { label: string; n: number }[], total: number): string {
  const columns: Column<{ label: string; n: number }>[] = [
    { title, width: 24, value: (row) => row.label },
    { title: "Sign-ups", width: 8, value: (row) => count(row.n), alignRight: true },
    { title: "Share", width: 6, value: (row) => `${((row.n / total) * 100).toFixed(1)}%`, alignRight: true },
  ];
  return renderTable(columns, rows);
}

/** Why an address was refused, in the operator's words. */
const REFUSAL_REASONS: Record<string, string> = {
  disposable: "throwaway domain",
  denied: "denied domain",
  already_registered: "already on the list",
};
const reasonOf = (reason: string) => REFUSAL_REASONS[reason] ?? reason;

/** How many sign-ups were refused because of their address in the last 30 days, why, and the domains most refused. */
function refusalsSection(refused: RefusalCounts): string {
  if (refused.byReason.length === 0) return "Refused addresses, last 30 days: none";
  const total = refused.byReason.reduce((n, row) => n + row.n, 0);
  const reasons = renderTable<{ reason: string; n: number }>(
    [
      { title: "Refused addresses, last 30 days", width: 44, value: (row) => row.reason },
      { title: "Count", width: 7, value: (row) => count(row.n), alignRight: true },
    ],
    [...refused.byReason.map((row) => ({ reason: reasonOf(row.reason), n: row.n })), { reason: "In all", n: total }],
  );
  const domains = renderTable<RefusalCounts["topDomains"][number]>(
    [
      { title: "Domains refused most", width: 32, value: (row) => row.domain },
      { title: "Why", width: 20, value: (row) => reasonOf(row.reason) },
      { title: "Count", width: 7, value: (row) => count(row.n), alignRight: true },
    ],
    refused.topDomains,
  );
  const denied = refused.byReason.some((row) => row.reason === "denied") ? "\n(denied domain: in WAITLIST_EMAIL_DOMAINS_DENY)" : "";
  return `${reasons}\n\n${domains}${denied}`;
}

/** The funnel from a visit to an invitation over `range`: the site's, then per campaign and per page. */
async function funnelSection(db: Database, range: DayRange): Promise<string> {
  const [site, views, campaigns, pages] = await Promise.all([siteFunnel(db, range), pageViews(db, range), campaignFunnels(db, range), pageFunnels(db, range)]);
  const steps = Object.keys(FUNNEL_STEPS) as FunnelStep[];
  const share = (funnel: Funnel) => {
    const value = conversion(funnel);
    return value === null ? "–" : `${value.toFixed(1)}%`;
  };
  const figures = <Row extends Funnel>(): Column<Row>[] => [
    ...steps.map((step) => ({ title: FUNNEL_STEPS[step], width: Math.max(8, FUNNEL_STEPS[step].length), value: (row: Row) => count(row[step]), alignRight: true })),
    { title: "No counted visit", width: 16, value: (row: Row) => count(withoutCountedVisit(row)), alignRight: true },
    { title: "Sign-up rate", width: 12, value: (row: Row) => share(row), alignRight: true },
  ];
  const heading = `Visits and the funnel, ${range.from} to ${range.to} (UTC; visitors once a day each, no cookies)`;
  if (views === 0 && site.stored === 0) return `${heading}
No visits or sign-ups in this range.`;
  return [
    `${heading}
Page views: ${count(views)}
` + renderTable(figures<Funnel>(), [site]),
    renderTable([
      { title: "Source", width: 14, value: (row: (typeof campaigns)[number]) => row.source },
      { title: "Medium", width: 10, value: (row) => row.medium },
      { title: "Campaign", width: 16, value: (row) => row.campaign },
      ...figures<(typeof campaigns)[number]>(),
    ], campaigns),
    renderTable([{ title: "Page", width: 16, value: (row: (typeof pages)[number]) => (row.page === "" ? "(not recorded)" : row.page) }, ...figures<(typeof pages)[number]>()], pages),
    ...([site, ...campaigns, ...pages].some((funnel) => withoutCountedVisit(funnel) > 0) ? [WITHOUT_COUNTED_VISIT_NOTE] : []),
  ].join("\n\n");
}

async function statsCommand(db: Database, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { from: { type: "string" }, to: { type: "string" } } });
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && !utcDaySchema.safeParse(value).success) throw new UsageError(`--${name} must be a day such as 2026-11-01 (YYYY-MM-DD, UTC)`);
  }
  const funnel = await funnelSection(db, rangeOf(values.from, values.to));
  const s = await stats(db);
  if (s.total === 0) {
    await write(io.stdout, `No sign-ups yet. Stats will appear here as people join the waitlist.\n\n${funnel}\n`);
    return 0;
  }
  const refused = await refusalCounts(db, s.perDay[0]!.day);
  const counted = (rows: { key: string | null; n: number }[]) => new Map(rows.map((row) => [row.key, row.n]));
  const types = counted(s.byBusinessType);
  const sizes = counted(s.byCompanySize);
  const unknown = (key: string | null) => (key === null ? "(not recorded)" : key);
  const peak = Math.max(1, ...s.perDay.map((day) => day.n));

  const sections = [
    `Sign-ups: ${count(s.total)} (first ${utcDay(s.first!)}, latest ${utcDay(s.latest!)}, UTC)\n` +
      `Confirmed their email: ${count(s.confirmed)} (${((s.confirmed / s.total) * 100).toFixed(1)}%)\n` +
      `Removed: ${count(s.removedByVisitors)} by the visitor, ${count(s.removedByOperators)} by an operator` +
      (s.removedByRetention > 0 ? `, ${count(s.removedByRetention)} past the retention period` : "") +
      ` (counts only; nothing about them is kept)` +
      (s.duplicates > 0 ? `\nDuplicates kept from before one mailbox meant one entry: ${count(s.duplicates)} (see duplicates)` : ""),
    breakdown("Business type", BUSINESS_TYPES.map((o) => ({ label: o.label, n: types.get(o.value) ?? 0 })), s.total),
    breakdown("Company size", COMPANY_SIZES.map((o) => ({ label: o.label, n: sizes.get(o.value) ?? 0 })), s.total),
    breakdown("Source (utm_source)", s.bySource.map((row) => ({ label: unknown(row.key), n: row.n })), s.total),
    breakdown("Page", s.byPage.map((row) => ({ label: unknown(row.key), n: row.n })), s.total),
    refusalsSection(refused),
    funnel,
    [
      "Last 30 days (UTC)",
      ...s.perDay.map(({ day, n }) => `${day}  ${String(n).padStart(5)}  ${"█".repeat(Math.round((n / peak) * BAR_WIDTH))}`.trimEnd()),
    ].join("\n"),
  ];
  await write(io.stdout, `${sections.join("\n\n")}\n`);
  return 0;
}

/**
 * A new file only its owner can read (0600): an export is the whole list. With
 * --force an existing file is replaced by a new one, not rewritten in place,
 * so it cannot keep the old file's wider permissions.
 */
async function exportFile(file: string, force: boolean): Promise<Writable> {
  if (force) await rm(file, { force: true });
  const stream = createWriteStream(file, { encoding: "utf8", flags: "wx", mode: 0o600 });
  await new Promise<void>((resolve, reject) => {
    stream.once("open", () => resolve());
    stream.once("error", reject);
  });
  return stream;
}

async function exportCommand(db: Database, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { format: { type: "string" }, out: { type: "string" }, force: { type: "boolean" } },
  });
  const format = values.format;
  if (format !== "csv" && format !== "json") throw new UsageError("export needs --format csv or --format json.");
  if (values.out && existsSync(values.out) && !values.force) {
    throw new UsageError(`${values.out} exists. Choose another file, or add --force to replace it.`);
  }

  const out = values.out ? await exportFile(values.out, !!values.force) : io.stdout;
  // On a terminal, what visitors typed could carry escape sequences (clear the screen, a disguised
  // link) or bidi overrides: shown as list shows them. A file or a pipe gets the exact data.
  const toTerminal = !values.out && (io.stdout as { isTTY?: boolean }).isTTY === true;
  let rows = 0;
  // Rows are batched into chunks so a 100,000-row export makes a few hundred writes, not 100,000.
  let chunk = exportText.head(format);
  for await (const entry of iterateEntries(db)) {
    chunk += exportText.row(format, toTerminal ? shownOnTerminal(entry) : entry, rows++);
    if (chunk.length >= 64 * 1024) {
      await write(out, chunk);
      chunk = "";
    }
  }
  chunk += exportText.tail(format, rows);
  await write(out, chunk);
  if (values.out) {
    out.end();
    await once(out, "finish");
  }
  await recordAction(db, { actor: shellActor(), action: "export", detail: { format, rows, to: values.out ? "file" : "standard output" } });
  const where = values.out ? ` to ${values.out}` : "";
  await write(io.stderr, rows === 0 ? `No sign-ups yet; wrote an empty ${format.toUpperCase()} export${where}.\n` : `Exported ${count(rows)} sign-up${rows === 1 ? "" : "s"} as ${format.toUpperCase()}${where}.\n`);
  if (toTerminal && rows > 0) await write(io.stderr, "Control characters were shown as \uFFFD for the terminal; --out FILE, or a pipe, keeps the exact data.\n");
  return 0;
}

/** An entry with every text as a terminal may show it (terminalSafe). */
function shownOnTerminal<Entry extends object>(entry: Entry): Entry {
  return Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, typeof value === "string" ? terminalSafe(value) : value])) as Entry;
}


async function remove(db: Database, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { email: { type: "string" }, id: { type: "string" }, yes: { type: "boolean" } } });
  const email = values.email?.trim();
  if (!email === (values.id === undefined)) throw new UsageError("remove needs --email ADDRESS or --id N.");
  if (values.id !== undefined && !/^[1-9]\d*$/.test(values.id)) throw new UsageError(`--id must be an entry's id (a positive whole number), not "${values.id}".`);
  const entry = email ? await findByEmail(db, email) : await findById(db, Number(values.id));
  if (!entry) {
    const which = email ? `the email ${terminalSafe(email)}` : `the id ${values.id}`;
    await write(io.stderr, `No sign-up with ${which}. Nothing removed.\n`);
    return 1;
  }
  const who = terminalSafe(`${entry.contact_name} <${entry.email}> of ${entry.company_name}, signed up ${entry.created_at.slice(0, 10)}`);
  if (!values.yes) {
    await write(io.stdout, `${who}\nRemove this sign-up for good? Type yes to confirm: `);
    const answer = await readAnswer(io.stdin);
    if (answer !== "yes" && answer !== "y") {
      await write(io.stdout, "\nNot removed.\n");
      return 1;
    }
  }
  await removeById(db, entry.id, shellActor());
  await write(io.stdout, `Removed ${who}.\n`);
  return 0;
}

/** Whether the waitlist would take an address now, and if not, why. */
async function checkCommand(db: Database, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { email: { type: "string" } } });
  const email = values.email?.trim();
  if (!email) throw new UsageError("check needs --email ADDRESS.");
  const shown = terminalSafe(email);
  const parsed = waitlistSignupSchema.shape.email.safeParse(email);
  if (!parsed.success) {
    await write(io.stdout, `${shown}: refused, not a valid address (${parsed.error.issues[0]!.message})\n`);
    return 0;
  }
  const env = parseEnv();
  const refusal = refusedDomain(email, { allow: env.WAITLIST_EMAIL_DOMAINS_ALLOW, deny: env.WAITLIST_EMAIL_DOMAINS_DENY });
  if (refusal) {
    const why = refusal.reason === "disposable" ? "is on the throwaway-domain list" : "is in WAITLIST_EMAIL_DOMAINS_DENY";
    await write(io.stdout, `${shown}: refused, ${terminalSafe(refusal.domain)} ${why}. The visitor reads: "${refusedDomainMessage(refusal)}"\n`);
    return 0;
  }
  const entry = await findByEmail(db, email);
  if (entry) {
    await write(io.stdout, `${shown}: refused, already on the list as #${entry.id} ${terminalSafe(entry.email)} (the same mailbox: ${terminalSafe(normalizeEmail(email))}).\n`);
    return 0;
  }
  await write(io.stdout, `${shown}: would be taken (its mailbox: ${terminalSafe(normalizeEmail(email))}).\n`);
  return 0;
}

async function duplicatesCommand(db: Database, args: string[], io: CliIo): Promise<number> {
  parseArgs({ args, strict: true, options: {} });
  const groups = await listDuplicates(db);
  if (groups.length === 0) {
    await write(io.stdout, "No duplicates: every mailbox is on the list once.\n");
    return 0;
  }
  const line = (entry: OperatorRecord) =>
    terminalSafe(`#${entry.id}  ${entry.created_at.slice(0, 10)}  ${entry.email}  (${entry.contact_name}, ${entry.company_name})`);
  const blocks = groups.map(({ entry, duplicates }) => [line(entry), ...duplicates.map((row) => `    duplicate ${line(row)}`)].join("\n"));
  const rows = groups.reduce((n, group) => n + group.duplicates.length, 0);
  await write(
    io.stdout,
    `${blocks.join("\n\n")}\n\n${count(rows)} duplicate${rows === 1 ? "" : "s"} of ${count(groups.length)} entr${groups.length === 1 ? "y" : "ies"}. ` +
      "They were stored before one mailbox meant one entry; nothing was deleted. Remove one you do not want with remove --id N.\n",
  );
  return 0;
}


async function deliveries(db: Database, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { status: { type: "string" }, limit: { type: "string" } } });
  const choices: Record<string, DeliveryStatus[]> = { pending: ["pending"], failed: ["failed"], all: ["failed", "pending", "delivered"] };
  if (values.status !== undefined && !Object.hasOwn(choices, values.status)) {
    throw new UsageError(`--status must be pending, failed or all, not "${values.status}".`);
  }
  const statuses = values.status === undefined ? (["failed", "pending"] as DeliveryStatus[]) : choices[values.status]!;
  const limitText = values.limit ?? "50";
  if (!/^[1-9]\d*$/.test(limitText)) throw new UsageError(`--limit must be a positive whole number, not "${limitText}".`);

  const counts = await deliveryCounts(db);
  if (counts.length === 0) {
    await write(io.stdout, "No deliveries yet. Each new sign-up owes a confirmation email (SMTP_URL) and a webhook (WAITLIST_WEBHOOK_URL) when those are set.\n");
    return 0;
  }
  const summary = counts.map(({ kind, status, n }) => `${kind} ${status}: ${count(n)}`).join(" · ");
  const rows = await listDeliveries(db, statuses, Number(limitText));
  const columns: Column<DeliveryRow>[] = [
    { title: "Delivery id", width: 36, value: (d) => d.id },
    { title: "Kind", width: 7, value: (d) => d.kind },
    { title: "Status", width: 9, value: (d) => d.status },
    { title: "Tries", width: 5, value: (d) => String(d.attempts), alignRight: true },
    { title: "Sign-up (email)", width: 30, value: (d) => d.entry.email },
    { title: "Next try (UTC)", width: 16, value: (d) => (d.status === "pending" ? utcMinute(d.nextAttemptAt) : "") },
    { title: "Last error", width: 28, value: (d) => d.lastError ?? "" },
  ];
  const listed = rows.length === 0 ? "None to list." : renderTable(columns, rows);
  await write(io.stdout, `${summary}\n\n${listed}\n`);
  return 0;
}

async function redeliverCommand(db: Database, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { id: { type: "string" }, "all-failed": { type: "boolean" } } });
  if (!values.id === !values["all-failed"]) throw new UsageError("redeliver needs --id ID or --all-failed.");
  const n = await redeliver(db, values.id ? { id: values.id } : { allFailed: true }, shellActor());
  if (n === 0) {
    await write(io.stderr, values.id ? `No failed delivery with the id ${terminalSafe(values.id)}.\n` : "No failed deliveries.\n");
    return values.id ? 1 : 0;
  }
  await write(io.stdout, `${count(n)} deliver${n === 1 ? "y is" : "ies are"} pending again; the running site sends ${n === 1 ? "it" : "them"} within seconds.\n`);
  return 0;
}

const COMMANDS: Record<string, (db: Database, args: string[], io: CliIo) => Promise<number>> = {
  list,
  stats: statsCommand,
  export: exportCommand,
  duplicates: duplicatesCommand,
  check: checkCommand,
  remove,
  deliveries,
  redeliver: redeliverCommand,
  queue: queueCommand,
  contact: contactCommand,
  operators: operatorsCommand,
  audit: auditCommand,
  backup: backupCommand,
  restore: restoreCommand,
};

/**
 * Runs one command; returns the exit code. Bad usage: the reason and the usage
 * on stderr, 2. The database is opened only for a command that exists, and closed after.
 */
export async function runCli(argv: string[], openDb: () => Database, io: CliIo): Promise<number> {
  const [command] = argv;
  try {
    if (!command || !Object.hasOwn(COMMANDS, command)) {
      throw new UsageError(command ? `Unknown command "${command}".` : "Name a command.");
    }
    const db = openDb();
    try {
      return await COMMANDS[command]!(db, argv.slice(1), io);
    } finally {
      await db.$disconnect();
    }
  } catch (error) {
    const isArgumentError = error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    if (!isArgumentError) throw error;
    await write(io.stderr, `${terminalSafe((error as Error).message)}\n\n${USAGE}`);
    return 2;
  }
}
