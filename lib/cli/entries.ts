/**
 * The commands about sign-ups themselves: list, export, check, duplicates and remove
 * (docs/operations.md). ./cli.ts dispatches to them.
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
import { normalizeEmail, waitlistSignupSchema } from "../waitlist/schema";
import { displayValue, SIGNUP_FIELD_NAMES, SIGNUP_FIELDS, type ListColumn } from "../waitlist/fields";
import { BUSINESS_TYPE_VALUES, COMPANY_SIZE_VALUES } from "../content/signup-options";
import type { EntryRecord } from "../waitlist/fields";
import { recordAction, shellActor } from "../audit/trail";
import { readAnswer, UsageError, write, type CliIo } from "./io";
import { exportText } from "../console/export";
import { count, renderTable, terminalSafe, type Column } from "../console/format";
import {
  countEntries,
  findByEmail,
  findById,
  listDuplicates,
  iterateEntries,
  listEntries,
  removeById,
  type ListFilters,
} from "../console/queries";
import { type OperatorRecord } from "../console/list";

const LIST_DEFAULT_LIMIT = 50;

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

function listFiltersOf(values: Record<string, string | boolean | undefined>): { filters: ListFilters; limit: number | null } {
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

export async function list(db: Database, args: string[], io: CliIo): Promise<number> {
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
  const { filters, limit } = listFiltersOf(values);
  const { entries, total } = await listEntries(db, filters, limit);
  if (total === 0) {
    const anyAtAll = Object.keys(filters).length > 0 && (await countEntries(db)) > 0;
    await write(
      io.stdout,
      anyAtAll ? "No sign-ups match those filters.\n" : "No sign-ups yet. They will appear here as people join the waitlist.\n",
    );
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

export async function exportCommand(db: Database, args: string[], io: CliIo): Promise<number> {
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
  await write(
    io.stderr,
    rows === 0
      ? `No sign-ups yet; wrote an empty ${format.toUpperCase()} export${where}.\n`
      : `Exported ${count(rows)} sign-up${rows === 1 ? "" : "s"} as ${format.toUpperCase()}${where}.\n`,
  );
  if (toTerminal && rows > 0)
    await write(io.stderr, "Control characters were shown as \uFFFD for the terminal; --out FILE, or a pipe, keeps the exact data.\n");
  return 0;
}

/** An entry with every text as a terminal may show it (terminalSafe). */
function shownOnTerminal<Entry extends object>(entry: Entry): Entry {
  return Object.fromEntries(
    Object.entries(entry).map(([key, value]) => [key, typeof value === "string" ? terminalSafe(value) : value]),
  ) as Entry;
}

export async function remove(db: Database, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { email: { type: "string" }, id: { type: "string" }, yes: { type: "boolean" } },
  });
  const email = values.email?.trim();
  if (!email === (values.id === undefined)) throw new UsageError("remove needs --email ADDRESS or --id N.");
  if (values.id !== undefined && !/^[1-9]\d*$/.test(values.id))
    throw new UsageError(`--id must be an entry's id (a positive whole number), not "${values.id}".`);
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
export async function checkCommand(db: Database, args: string[], io: CliIo): Promise<number> {
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
    await write(
      io.stdout,
      `${shown}: refused, ${terminalSafe(refusal.domain)} ${why}. The visitor reads: "${refusedDomainMessage(refusal)}"\n`,
    );
    return 0;
  }
  const entry = await findByEmail(db, email);
  if (entry) {
    await write(
      io.stdout,
      `${shown}: refused, already on the list as #${entry.id} ${terminalSafe(entry.email)} (the same mailbox: ${terminalSafe(normalizeEmail(email))}).\n`,
    );
    return 0;
  }
  await write(io.stdout, `${shown}: would be taken (its mailbox: ${terminalSafe(normalizeEmail(email))}).\n`);
  return 0;
}

export async function duplicatesCommand(db: Database, args: string[], io: CliIo): Promise<number> {
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
