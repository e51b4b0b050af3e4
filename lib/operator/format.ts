/**
 * Turning sign-ups into text an operator reads (a terminal table) or hands to
 * another program (CSV, JSON). Visitors typed these values, so nothing here
 * trusts them: control characters cannot reach the terminal, and spreadsheet
 * formulas cannot reach a spreadsheet.
 */
import { DISGUISING_CHARACTERS } from "../security/disguising-characters";


/** A value as it may be shown in a terminal: one line, no control characters. */
export function terminalSafe(value: string): string {
  return value.replace(DISGUISING_CHARACTERS, "\uFFFD");
}

/** Cuts to `width` characters (not UTF-16 units, so emoji are not split), marking the cut with "…". */
export function fit(value: string, width: number): string {
  const characters = Array.from(value);
  if (characters.length <= width) return value + " ".repeat(width - characters.length);
  return characters.slice(0, width - 1).join("") + "…";
}

export type Column<Row> = { title: string; width: number; value: (row: Row) => string; alignRight?: boolean };

/** A fixed-width text table: a header, a rule, one line per row. */
export function renderTable<Row>(columns: Column<Row>[], rows: Row[]): string {
  const line = (cells: string[]) => cells.join("  ").trimEnd();
  const cell = (column: Column<Row>, text: string) => {
    const fitted = fit(terminalSafe(text), column.width);
    return column.alignRight ? fitted.trimEnd().padStart(column.width) : fitted;
  };
  return [
    line(columns.map((column) => cell(column, column.title))),
    line(columns.map((column) => "─".repeat(column.width))),
    ...rows.map((row) => line(columns.map((column) => cell(column, column.value(row))))),
  ].join("\n");
}

/**
 * Spreadsheets run a cell that starts with one of these as a formula
 * (=HYPERLINK(...), +cmd|..., @SUM(...)); a tab or carriage return can hide
 * one. OWASP's advice: start such a value with an apostrophe, which makes the
 * spreadsheet show it as text. Phone numbers like "+1 555 ..." get one too.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The separators some spreadsheet splits on (comma, semicolon in much of Europe,
 * tab) and line breaks. A program that splits a line without honouring quotes
 * makes a new cell after each, so a formula start there is one too.
 */
const SEPARATORS = /[,;\t\r\n]/;
const FORMULA_AFTER_SEPARATOR = /([,;\t\r\n] *)([=+\-@])/g;

/** The value with an apostrophe before every formula start: at its beginning, and after any separator or line break. */
export function inertForSpreadsheets(value: string): string {
  const inside = value.replace(FORMULA_AFTER_SEPARATOR, "$1'$2");
  return FORMULA_START.test(inside) ? `'${inside}` : inside;
}

/**
 * One CSV field (RFC 4180, quotes doubled), quoted when it holds a quote or any
 * separator of any locale (comma, semicolon, tab) or a line break, so whichever
 * separator the spreadsheet is set to, the value stays one cell.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  const text = typeof value === "number" ? String(value) : inertForSpreadsheets(value);
  return text.includes('"') || SEPARATORS.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record, ended with CRLF as RFC 4180 says. */
export function csvRecord(values: (string | number | null)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** 1234 -> "1,234". */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** A moment as the operator tool prints it: "2026-11-24 09:30" (UTC; the column says so). */
export function utcMinute(date: Date): string {
  return date.toISOString().slice(0, 16).replace("T", " ");
}
