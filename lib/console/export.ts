/**
 * The console's download: the filtered list as CSV (formula-safe, the same
 * columns and guards as `npm run waitlist -- export`) or JSON, streamed. The
 * stream pulls one batch of rows at a time when the client has taken the last,
 * so memory stays flat however long the list is (bench/operator.ts measures it).
 */
import "server-only";
import type { Database } from "../db";
import { csvRecord } from "../csv";
import { matchingEntries, type ListQuery, type OperatorRecord } from "./list";
import { ENTRY_COLUMNS } from "./queries";

export type ExportFormat = "csv" | "json";

/**
 * The export format, written once for the console's download and `npm run waitlist -- export`:
 * what opens it, each row (`index` counts from 0), and what closes it after `rows` rows.
 */
export const exportText = {
  head: (format: ExportFormat) => (format === "csv" ? csvRecord([...ENTRY_COLUMNS]) : "["),
  row: (format: ExportFormat, entry: OperatorRecord, index: number) =>
    format === "csv"
      ? csvRecord(ENTRY_COLUMNS.map((column) => entry[column]))
      : `${index === 0 ? "" : ","}\n${JSON.stringify(Object.fromEntries(ENTRY_COLUMNS.map((column) => [column, entry[column]])))}`,
  tail: (format: ExportFormat, rows: number) => (format === "json" ? (rows === 0 ? "]\n" : "\n]\n") : ""),
};

export function streamExport(database: Database, query: ListQuery, format: ExportFormat): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = matchingEntries(database, query);
  let rows = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text = "";
      if (!started) {
        started = true;
        text = exportText.head(format);
      }
      const next = await batches.next();
      if (next.done) {
        text += exportText.tail(format, rows);
        if (text) controller.enqueue(encoder.encode(text));
        controller.close();
        return;
      }
      for (const entry of next.value) text += exportText.row(format, entry, rows++);
      controller.enqueue(encoder.encode(text));
    },
    async cancel() {
      // The client went away: stop reading the database.
      await batches.return(undefined);
    },
  });
}
