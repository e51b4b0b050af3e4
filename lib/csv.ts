/**
 * CSV for spreadsheets (RFC 4180): values visitors typed cannot become formulas, whatever
 * separator the spreadsheet splits on.
 */

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
function inertForSpreadsheets(value: string): string {
  const inside = value.replace(FORMULA_AFTER_SEPARATOR, "$1'$2");
  return FORMULA_START.test(inside) ? `'${inside}` : inside;
}

/**
 * One CSV field (RFC 4180, quotes doubled), quoted when it holds a quote or any
 * separator of any locale (comma, semicolon, tab) or a line break, so whichever
 * separator the spreadsheet is set to, the value stays one cell.
 */
function csvField(value: string | number | null): string {
  if (value === null) return "";
  const text = typeof value === "number" ? String(value) : inertForSpreadsheets(value);
  return text.includes('"') || SEPARATORS.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record, ended with CRLF as RFC 4180 says. */
export function csvRecord(values: (string | number | null)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}
