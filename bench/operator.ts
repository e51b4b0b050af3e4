/**
 * `npm run bench:operator [-- --database FILE] [--count N]`: the console's server
 * time at a launch-sized list. Seeds a database of N made-up sign-ups (default a
 * million; npm run db:seed) under .tmp/bench-operator/ unless one is given, then
 * reports the median of the follow-up queue's pages, the overview (with the
 * team's 48-hour figures), a filtered list page, a search and a later page, and
 * the full CSV download's time and peak memory (it must stay flat).
 * The same functions the pages and the download call, without HTTP around them.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { createDatabase } from "../lib/db";
import { databaseSettings } from "../lib/env";
import { streamExport } from "../lib/console/export";
import { listPage, parseListQuery } from "../lib/console/list";
import { overview } from "../lib/console/overview";
import { followUpMetrics } from "../lib/follow-up/metrics";
import { queuePage } from "../lib/follow-up/queue";
import { seededDatabase } from "./support/site-server";

const { values } = parseArgs({
  options: { database: { type: "string" }, count: { type: "string", default: "1000000" }, runs: { type: "string", default: "15" } },
});
const file = seededDatabase(Number(values.count), values.database);
const database = createDatabase(
  databaseSettings({ DATABASE_URL: `file:${file}`, DATABASE_DRIVER: "better-sqlite3", DATABASE_AUTH_TOKEN: undefined }),
);
const rows = await database.waitlistEntry.count();

async function median(label: string, target: string, work: () => Promise<unknown>): Promise<void> {
  await work(); // warm: the first run reads the pages from disk
  const times: number[] = [];
  for (let i = 0; i < Number(values.runs); i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const mid = times[Math.floor(times.length / 2)]!;
  console.log(
    `${label.padEnd(46)} median ${mid.toFixed(1).padStart(7)} ms   p90 ${times[Math.floor(times.length * 0.9)]!.toFixed(1).padStart(7)} ms   target ${target}`,
  );
}

const query = (params: Record<string, string>) => parseListQuery(new URLSearchParams(params)).query;
console.log(`Console server time at ${rows.toLocaleString("en-US")} entries (${path.relative(process.cwd(), file)})\n`);
const someone = (await database.waitlistEntry.findFirst({ where: { followUpState: "awaiting" }, select: { id: true } }))?.id;
if (someone)
  await database.waitlistEntry.updateMany({
    where: { id: { gte: someone, lt: someone + 200 }, followUpState: "awaiting" },
    data: { assignedTo: "bench-operator" },
  });
const awaiting = await database.waitlistEntry.count({ where: { followUpState: "awaiting" } });
console.log(`${awaiting.toLocaleString("en-US")} awaiting contact\n`);
await median("queue, first page (the console's landing)", "≤ 100 ms", () => queuePage(database, {}));
await median("queue, trade + size", "≤ 100 ms", () => queuePage(database, { type: "landscaping", size: "50+" }));
await median("queue, size only", "≤ 100 ms", () => queuePage(database, { size: "11-25" }));
await median("queue, unassigned", "≤ 100 ms", () => queuePage(database, { assignee: "none" }));
await median("queue, unassigned + trade", "≤ 100 ms", () => queuePage(database, { assignee: "none", type: "plumbing" }));
await median("queue, my queue (200 assigned)", "≤ 100 ms", () => queuePage(database, { assignee: "bench-operator" }));
const queueFirst = await queuePage(database, { type: "electrical" });
await median("queue, second page (keyset)", "≤ 100 ms", () =>
  queuePage(database, { type: "electrical", after: queueFirst.next ?? undefined }),
);
await median("the team's 48-hour figures (overview)", "≤ 100 ms", () => followUpMetrics(database));
await median("overview, 30 days by source", "≤ 300 ms", () => overview(database, { days: 30, split: "source" }));
await median("overview, 90 days by campaign", "≤ 300 ms", () => overview(database, { days: 90, split: "campaign" }));
await median("list, first page, no filter", "≤ 100 ms", () => listPage(database, query({})));
await median("list, trade + size + confirmed", "≤ 100 ms", () =>
  listPage(database, query({ type: "landscaping", size: "50+", confirmed: "no" })),
);
await median("list, source + date range", "≤ 100 ms", () =>
  listPage(database, query({ source: "linkedin", from: "2026-08-01", to: "2026-08-31" })),
);
const first = await listPage(database, query({ type: "electrical" }));
await median("list, second page (keyset)", "≤ 100 ms", () => listPage(database, query({ type: "electrical", after: first.older! })));
await median('search "miller" (common)', "≤ 300 ms", () => listPage(database, query({ q: "miller" })));
await median('search "zzqx" (matches nothing)', "≤ 300 ms", () => listPage(database, query({ q: "zzqx" })));
await median('search "heating" + trade', "≤ 300 ms", () => listPage(database, query({ q: "heating", type: "hvac" })));
await median('search "heating" + filters no match passes', "≤ 300 ms", () =>
  listPage(database, query({ q: "heating", type: "plumbing", size: "50+" })),
);

/** A download read to the end as a client would, resident memory sampled throughout. */
async function download(label: string, params: Record<string, string>): Promise<void> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  const reader = streamExport(database, query(params), "csv").getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (const byte of value) if (byte === 10) lines += 1;
  }
  clearInterval(sampler);
  console.log(
    `${label.padEnd(30)} ${(lines - 1).toLocaleString("en-US").padStart(9)} rows, ${(bytes / 1e6).toFixed(0).padStart(4)} MB in ${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s; ` +
      `resident memory ${(before / 2 ** 20).toFixed(0)} MiB before, peak ${(peak / 2 ** 20).toFixed(0)} MiB (+${((peak - before) / 2 ** 20).toFixed(0)} MiB)`,
  );
}

// Flat memory: the peak should not grow with the rows (a fifth of the list, then all of it).
console.log("");
await download("CSV download, one trade", { type: "landscaping" });
await download("CSV download, every entry", {});
await database.$disconnect();
