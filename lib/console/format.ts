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
function fit(value: string, width: number): string {
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

/** 1234 -> "1,234". */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** A moment as the operator tool prints it: "2026-11-24 09:30" (UTC; the column says so). */
export function utcMinute(date: Date): string {
  return date.toISOString().slice(0, 16).replace("T", " ");
}
