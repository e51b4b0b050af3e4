/** `deliveries` and `redeliver`: what is owed to other systems, and sending failed ones again. ./cli.ts dispatches to them. */
import "server-only";
import { parseArgs } from "node:util";
import type { Database } from "../db";
import { shellActor } from "../audit/trail";
import { UsageError, write, type CliIo } from "./io";
import { count, renderTable, terminalSafe, utcMinute, type Column } from "../console/format";
import { deliveryCounts, listDeliveries, redeliver, type DeliveryRow, type DeliveryStatus } from "../console/queries";

export async function deliveries(db: Database, args: string[], io: CliIo): Promise<number> {
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
    await write(
      io.stdout,
      "No deliveries yet. Each new sign-up owes a confirmation email (SMTP_URL) and a webhook (WAITLIST_WEBHOOK_URL) when those are set.\n",
    );
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

export async function redeliverCommand(db: Database, args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { id: { type: "string" }, "all-failed": { type: "boolean" } } });
  if (!values.id === !values["all-failed"]) throw new UsageError("redeliver needs --id ID or --all-failed.");
  const n = await redeliver(db, values.id ? { id: values.id } : { allFailed: true }, shellActor());
  if (n === 0) {
    await write(io.stderr, values.id ? `No failed delivery with the id ${terminalSafe(values.id)}.\n` : "No failed deliveries.\n");
    return values.id ? 1 : 0;
  }
  await write(
    io.stdout,
    `${count(n)} deliver${n === 1 ? "y is" : "ies are"} pending again; the running site sends ${n === 1 ? "it" : "them"} within seconds.\n`,
  );
  return 0;
}
