/**
 * The server's log: one JSON object per line (pino), so an operator can search
 * it during an incident (`journalctl -u fieldcrew -o cat | jq 'select(.fault)'`;
 * docs/operations.md). In development the same lines are printed readably.
 *
 * What goes in: request ids, routes, statuses, durations, fault kinds, ids of
 * rows. What never goes in: emails, names, phone numbers, notes, entry tokens
 * (callers log ids and kinds, not values; server.ts logs the visitor's page
 * without its token). A line about a fault carries `fault`, one of FaultKind
 * (the kinds errors carry are typed by it; docs/operations.md says what each means).
 */
import "server-only";
import { createRequire } from "node:module";
import { inspect } from "node:util";
import pino, { type Logger } from "pino";
import { singleton } from "./singleton";

/** Every fault the site recognises, as the `fault` field of its log line (docs/operations.md). */
export type FaultKind =
  | "database_worker_died"
  | "database_open_failed"
  | "database_query_deadline"
  | "database_busy"
  | "database_unavailable"
  | "overloaded"
  | "request_deadline"
  | "body_too_large"
  | "malformed_url"
  | "unexpected"
  | "delivery_failed"
  | "delivery_attempt_deadline"
  | "delivery_worker"
  | "mail_bounced"
  | "mail_sending_refused"
  | "bounce_ignored"
  | "refusal_not_counted"
  | "visit_not_counted"
  | "sign_in_mail_failed"
  | "overdue_watch"
  | "shutdown_deadline";

type Sink = (line: string) => void;

type SiteLog = { logger: Logger; sink: { write: Sink } };

/**
 * Readable, coloured lines from pino-pretty (a development dependency) in development and whenever
 * standard output is a terminal; JSON lines otherwise (a service's journal, a pipe, a file), and
 * when LOG_FORMAT=json or pino-pretty is not installed.
 */
function prettyOrPlain(): Sink {
  const write: Sink = (line) => void process.stdout.write(line);
  if ((process.env.NODE_ENV !== "development" && !process.stdout.isTTY) || process.env.LOG_FORMAT === "json") return write;
  try {
    const { prettyFactory } = createRequire(import.meta.url)("pino-pretty") as typeof import("pino-pretty");
    const pretty = prettyFactory({ colorize: process.stdout.isTTY, translateTime: "HH:MM:ss.l", ignore: "pid,hostname" });
    return (line) => void process.stdout.write(pretty(line));
  } catch {
    return write;
  }
}

const site = singleton<SiteLog>("log", () => {
  // Written synchronously through a sink that tests can swap (captureLog), one line per write.
  const sink = { write: prettyOrPlain() };
  const logger = pino(
    {
      level: process.env.LOG_LEVEL ?? "info",
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    { write: (line: string) => sink.write(line) },
  );
  return { logger, sink };
});

export const log: Logger = site.logger;

/**
 * Prisma's validation error (a bug of ours: a missing field, a wrong type) prints the call's
 * arguments with their values, an address or a name among them, in every error format (Prisma 7,
 * NODE_ENV=production or errorFormat "minimal" alike). Of its message, the log keeps the first line,
 * which names the call, and the last paragraph, which says what was wrong; of its stack, the frames.
 */
function withoutQueryArguments(error: Error): { message: string; stack?: string } {
  if (error.name !== "PrismaClientValidationError") return { message: error.message, stack: error.stack };
  const text = error.message.trim();
  const call = text.split("\n", 1)[0]!.replace(/ in$/, "");
  const paragraphs = text.split("\n\n");
  const why = paragraphs.length > 1 ? paragraphs.at(-1)!.trim() : "";
  const frames = error.stack?.split("\n").filter((line) => /^\s+at /.test(line));
  return {
    message: why ? `${call} ${why}` : call,
    stack: frames?.length ? [`${error.name}: (its arguments left out)`, ...frames].join("\n") : undefined,
  };
}

/** Anything shaped like an email address, masked: a library's error text can quote a query's values. */
const ADDRESS = /[A-Za-z0-9.!#$%&'*+=?^_{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

function maskAddresses(text: string): string {
  return text.replace(ADDRESS, "[address]");
}

/**
 * The error's kind and where it happened, for a log line. Callers make sure no visitor value is
 * in their own errors' messages; Prisma's validation error is cut to what carries none, and
 * anything shaped like an address is masked in what is left.
 */
export function errorFields(error: unknown): { error: { type: string; message: string; code?: string; stack?: string } } {
  if (!(error instanceof Error)) return { error: { type: typeof error, message: maskAddresses(String(error)) } };
  const code = (error as { code?: unknown }).code;
  const { message, stack } = withoutQueryArguments(error);
  return {
    error: {
      type: error.name,
      message: maskAddresses(message),
      ...(typeof code === "string" ? { code } : {}),
      ...(stack ? { stack: maskAddresses(stack) } : {}),
    },
  };
}

/**
 * Errors that have their line in the log already (a page's, by lib/site/request-errors.ts). One
 * for the process: request-errors.ts runs in Next's bundle, the console.error sink in server.ts's,
 * each with its own copy of this module.
 */
const reported = singleton("reported errors", () => new WeakSet<object>());

/** Notes that `error` has its line in the log: true the first time, false once it has one. */
export function firstReport(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return true;
  if (reported.has(error)) return false;
  reported.add(error);
  return true;
}

/**
 * From now on, console.error writes to this log: Next prints an error a page did not catch with
 * console.error, which would put Prisma's query, an address among its values, on standard error
 * whole. An Error goes through errorFields; text has its addresses masked. A page's error gets
 * its line with the request's id and route from lib/site/request-errors.ts, just after Next
 * prints it, so it is written here only if that line did not come.
 */
export function sendConsoleErrorsToLog(): void {
  console.error = (...args: unknown[]) => {
    const error = args.find((arg): arg is Error => arg instanceof Error);
    const text = maskAddresses(
      args
        .filter((arg) => arg !== error)
        .map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: 2, breakLength: Infinity })))
        .join(" "),
    );
    if (!error) return void site.logger.error({ source: "console.error" }, text);
    setImmediate(() => {
      if (firstReport(error))
        site.logger.error(
          { fault: "unexpected", source: "console.error", ...errorFields(error) },
          text || "an error printed to standard error",
        );
    });
  };
}

/** Log lines go to standard error: for the operator tool, whose standard output is its data. */
export function logToStandardError(): void {
  site.sink.write = (line) => void process.stderr.write(line);
}

/** For tests: every line logged until `stop()` is called, parsed. */
export function captureLog(): { lines: Record<string, unknown>[]; text: () => string; stop: () => void } {
  const previous = site.sink.write;
  const lines: Record<string, unknown>[] = [];
  site.sink.write = (line) => void lines.push(JSON.parse(line) as Record<string, unknown>);
  return { lines, text: () => lines.map((line) => JSON.stringify(line)).join("\n"), stop: () => void (site.sink.write = previous) };
}
