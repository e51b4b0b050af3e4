/**
 * Chaos run: every fault at once, for minutes. Two production instances
 * (server.ts on a build) share one database file under a steady flood of
 * sign-ups, visitors confirming their email, "email me my link again" requests
 * and console reads, while:
 *
 * - one instance or the other is killed with SIGKILL every few seconds, and restarted;
 * - a third process takes the database's write lock now and then, for up to 4 s;
 * - the SMTP server and the webhook receiver refuse, drop connections and stall, now and then.
 *
 * Then the receivers recover, and it checks: every 201 stored, every 503 not stored, no 500
 * (answered or logged) and nothing thrown, every confirmation answered 303 recorded, every owed
 * email and webhook delivered (each id arriving; repeats counted, and no more than the faults
 * that can cause one could cut off: see docs/operations.md), the file intact. It prints the counts of
 * each fault and each answer and the p99 of the answers, and exits non-zero on any failure.
 *
 *   npm run test:chaos                      (about 3 minutes of chaos)
 *   CHAOS_SECONDS=600 npm run test:chaos    (the 10-minute run in docs/operations.md)
 *   CHAOS_WITHOUT=kills,locks,receivers     (leaves those faults out, to tell which one a finding needs)
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import Database from "better-sqlite3";
import { SMTPServer } from "smtp-server";
import { BENCH_SECRET, ensureBuild, freshDatabase, LOAD_TEST_ENV, startSiteServer, type SiteServer } from "../../bench/support/site-server";
import { uniqueSignupBody } from "../../bench/support/signups";

const SECONDS = Number(process.env.CHAOS_SECONDS ?? 180);
const PORTS = [3240, 3241] as const;
const SMTP_PORT = 2594;
const WEBHOOK_PORT = 3249;
const LEASE_SECONDS = 4;
/** Sign-ups a second, in all; confirmations, link requests and console reads come beside them. */
const SIGNUPS_PER_SECOND = Number(process.env.CHAOS_RATE ?? 15);
const WEBHOOK_SECRET = `whsec_${Buffer.from("chaos-run-webhook-secret-0123456789ab").toString("base64")}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (low: number, high: number) => low + Math.random() * (high - low);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

const leftOut = new Set((process.env.CHAOS_WITHOUT ?? "").split(",").map((name) => name.trim()));
const faults: Record<string, number> = {};
const injected = (name: string) => void (faults[name] = (faults[name] ?? 0) + 1);

// ---- The receivers, and their faults ----

type Mode = "ok" | "refuse" | "drop" | "stall";
const MODES: readonly Mode[] = ["ok", "ok", "refuse", "drop", "stall"];
/** Longer than an attempt's deadline (half the lease): the site gives up first. */
const STALL_MS = LEASE_SECONDS * 1_000;

/** Arrivals by id: an arrival counts only if the receiver accepted it on a connection still open. */
class Arrivals {
  readonly counts = new Map<string, number>();
  add(id: string) {
    this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
  }
  repeats() {
    return [...this.counts.values()].reduce((sum, n) => sum + n - 1, 0);
  }
}

function webhookReceiver(mode: () => Mode) {
  const arrivals = new Arrivals();
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    // A site instance killed mid-request resets the connection: one of the faults, not a finding.
    request.on("error", () => {});
    request.resume();
    request.on("end", async () => {
      const now = mode();
      if (now === "refuse") return void response.writeHead(503, { "Retry-After": "1" }).end();
      if (now === "drop") return void request.socket.destroy();
      if (now === "stall") await sleep(STALL_MS);
      if (request.socket.destroyed) return; // the site gave up waiting: not accepted
      arrivals.add(String(request.headers["webhook-id"]));
      response.writeHead(204).end();
    });
  });
  return {
    arrivals,
    listen: () => new Promise<void>((resolve) => server.listen(WEBHOOK_PORT, "127.0.0.1", resolve)),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

function smtpReceiver(mode: () => Mode) {
  const arrivals = new Arrivals();
  const sockets = new Map<string, Socket>();
  const closed = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onConnect(session, callback) {
      if (mode() === "refuse") return callback(Object.assign(new Error("Service not available, try later"), { responseCode: 421 }));
      callback();
    },
    onClose(session) {
      closed.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const now = mode();
        if (now === "drop") {
          sockets.get(`${session.remoteAddress}:${session.remotePort}`)?.destroy();
          return callback(new Error("dropped"));
        }
        if (now === "stall") await sleep(STALL_MS);
        if (closed.has(session.id)) return callback(new Error("connection closed before the message was accepted"));
        const id = /^Message-ID:\s*<([^@>]+)@/im.exec(Buffer.concat(chunks).toString("utf8"))?.[1] ?? "?";
        arrivals.add(id);
        callback();
      });
    },
  });
  // A client that goes away mid-conversation (an instance killed while sending) is an 'error' on the
  // server; without a listener it would end this process. It is one of the faults, not a finding.
  server.on("error", () => {});
  // smtp-server does not hand a session its socket: found by the client's address, to drop it.
  (server as unknown as { server: Server }).server.on("connection", (socket: Socket) => {
    const key = `${socket.remoteAddress}:${socket.remotePort}`;
    sockets.set(key, socket);
    socket.once("close", () => sockets.delete(key));
  });
  return {
    arrivals,
    listen: () => new Promise<void>((resolve) => server.listen(SMTP_PORT, "127.0.0.1", resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---- The instances ----

const databaseFile = (() => {
  ensureBuild();
  return freshDatabase("chaos");
})();
const env = (index: number) => ({
  ...LOAD_TEST_ENV,
  SITE_URL: `http://127.0.0.1:${PORTS[0]}`,
  SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
  MAIL_FROM: "FieldCrew <hello@fieldcrew.app>",
  MAIL_MAX_PER_HOUR: "1000000",
  MAIL_MAX_PER_DOMAIN_PER_HOUR: "1000000",
  WAITLIST_WEBHOOK_URL: `http://127.0.0.1:${WEBHOOK_PORT}/hooks`,
  WAITLIST_WEBHOOK_SECRET: WEBHOOK_SECRET,
  WAITLIST_DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS),
  // Enough tries to outlast any stretch of faults below; the run checks none ends "failed".
  WAITLIST_DELIVERY_RETRY_SECONDS: Array(60).fill("1").join(","),
  INSTANCE_ID: `chaos-${index}`,
});

/** Each instance's slot: its server while it runs, null while it is down; all the log it ever wrote. */
const instances: (SiteServer | null)[] = [null, null];
const logs: string[] = [];
/** What each wrote to standard error: Next prints there, as text, what a page threw. */
const errorLogs: string[] = [];
async function start(index: number): Promise<void> {
  instances[index] = await startSiteServer({ port: PORTS[index]!, databaseFile, env: env(index), output: true });
}
function keepLog(server: SiteServer) {
  logs.push(server.output());
  errorLogs.push(server.errorOutput());
}

// ---- The flood, and what each answer was ----

type Kind = "signup" | "confirm" | "link" | "console";
const answers: Record<Kind, Map<number, number>> = { signup: new Map(), confirm: new Map(), link: new Map(), console: new Map() };
const durations: Record<Kind, number[]> = { signup: [], confirm: [], link: [], console: [] };
const acknowledged: string[] = [];
const refused: string[] = []; // answered 503: must not be stored
const confirmed = new Set<string>(); // the visitor was sent back to their page: must be recorded
const unexpected: string[] = [];

function record(kind: Kind, status: number, ms: number, what: string) {
  answers[kind].set(status, (answers[kind].get(status) ?? 0) + 1);
  if (status !== 0) durations[kind].push(ms);
  if (status >= 500 && status !== 503) unexpected.push(`${kind} ${what}: ${status}`);
}

/** A running instance's address, or null while both are down. */
function liveUrl(): string | null {
  const running = instances.filter((server): server is SiteServer => server !== null);
  return running.length ? pick(running).url : null;
}

async function timed(kind: Kind, what: string, send: (url: string) => Promise<Response>): Promise<Response | null> {
  const url = liveUrl();
  if (!url) return null;
  const started = performance.now();
  try {
    const response = await send(url);
    await response.arrayBuffer();
    record(kind, response.status, performance.now() - started, what);
    return response;
  } catch {
    record(kind, 0, performance.now() - started, what); // no answer (the instance was killed): no promise made
    return null;
  }
}

async function signUp(): Promise<void> {
  const { email, body } = uniqueSignupBody("chaos");
  const response = await timed("signup", email, (url) =>
    fetch(`${url}/api/waitlist`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${1 + Math.floor(Math.random() * 250)}` },
      body,
      redirect: "manual",
    }),
  );
  if (response?.status === 201) acknowledged.push(email);
  else if (response?.status === 503) refused.push(email);
  else if (response && response.status !== 503) unexpected.push(`signup ${email}: ${response.status}`);
}

const { entryToken } = await import("../../lib/waitlist/entry-link");
const reader = new Database(databaseFile, { readonly: true, fileMustExist: true, timeout: 10_000 });
const publicIdOf = reader.prepare("SELECT public_id FROM waitlist_entries WHERE email = ?").pluck();

async function confirm(): Promise<void> {
  const email = acknowledged.length ? pick(acknowledged) : null;
  const publicId = email && (publicIdOf.get(email) as string | undefined);
  if (!publicId) return;
  const body = new URLSearchParams({ token: entryToken(BENCH_SECRET, publicId), action: "confirm" });
  const response = await timed("confirm", email, (url) =>
    fetch(`${url}/api/waitlist/entry`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: url, "sec-fetch-site": "same-origin" },
      body,
      redirect: "manual",
    }),
  );
  // Back to the visitor's page: the confirmation is recorded.
  if (response?.status === 303) confirmed.add(email);
}

/** The link-again page's form, as a browser without a script posts it: its hidden fields, and the email. */
async function linkAgain(): Promise<void> {
  const email = acknowledged.length ? pick(acknowledged) : null;
  if (!email) return;
  await timed("link", email, async (url) => {
    const page = await fetch(`${url}/waitlist/link`);
    const html = await page.text();
    const form = new FormData();
    for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?/g)) {
      form.append(name!.replaceAll("&quot;", '"'), (value ?? "").replaceAll("&quot;", '"').replaceAll("&amp;", "&"));
    }
    form.append("email", email);
    return fetch(`${url}/waitlist/link`, { method: "POST", headers: { origin: url }, body: form, redirect: "manual" });
  });
}

Object.assign(process.env, { DATABASE_URL: `file:${databaseFile}`, WAITLIST_SECRET: BENCH_SECRET });
const { signedInOperator } = await import("../support/operator-session");
const { closeDatabase } = await import("../../lib/db");
const { cookie } = await signedInOperator("chaos-operator@fieldcrew.example");
await closeDatabase(); // this process reads the file with its own connection from here on

async function consoleRead(): Promise<void> {
  const path = pick(["/operator/overview", "/operator/entries", "/operator/entries?q=chaos"]);
  await timed("console", path, (url) => fetch(`${url}${path}`, { headers: { cookie }, redirect: "manual" }));
}

/** Runs `task` about `perSecond` times a second until `until()`, each on its own (a slow answer does not slow the pace). */
async function paced(perSecond: number, until: () => boolean, task: () => Promise<void>): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  while (!until()) {
    const run = task().finally(() => inFlight.delete(run));
    inFlight.add(run);
    await sleep(1_000 / perSecond);
  }
  await Promise.all(inFlight);
}

// ---- The run ----

let smtpMode: Mode = "ok";
let webhookMode: Mode = "ok";
const smtp = smtpReceiver(() => smtpMode);
const webhook = webhookReceiver(() => webhookMode);
await smtp.listen();
await webhook.listen();
await Promise.all([start(0), start(1)]);

const started = Date.now();
const deadline = started + SECONDS * 1_000;
const over = () => Date.now() >= deadline;
console.log(
  `Chaos for ${SECONDS} s: two instances (:${PORTS.join(", :")}), ${SIGNUPS_PER_SECOND} sign-ups/s, kills, a lock holder, failing receivers`,
);

async function killer(): Promise<void> {
  while (!over() && !leftOut.has("kills")) {
    await sleep(between(4_000, 9_000));
    if (over()) break;
    const index = Math.floor(Math.random() * 2);
    const server = instances[index];
    if (!server) continue;
    instances[index] = null;
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGKILL");
    await exited;
    keepLog(server);
    injected("instance killed (SIGKILL)");
    await start(index);
  }
}

async function lockHolder(): Promise<void> {
  // No busy wait: a synchronous wait here would stop this whole driver; a held lock is just skipped.
  const holder = new Database(databaseFile, { timeout: 0 });
  while (!over() && !leftOut.has("locks")) {
    await sleep(between(5_000, 12_000));
    if (over()) break;
    try {
      holder.exec("BEGIN IMMEDIATE");
    } catch {
      continue; // an instance is writing: try again at the next turn
    }
    injected("write lock held by another process");
    await sleep(between(1_000, 4_000));
    holder.exec("COMMIT");
  }
  holder.close();
}

async function receiverFaults(): Promise<void> {
  while (!over() && !leftOut.has("receivers")) {
    await sleep(between(2_000, 5_000));
    smtpMode = pick(MODES);
    webhookMode = pick(MODES);
    if (smtpMode !== "ok") injected(`SMTP server: ${smtpMode}`);
    if (webhookMode !== "ok") injected(`webhook receiver: ${webhookMode}`);
  }
  smtpMode = "ok";
  webhookMode = "ok";
}

await Promise.all([
  killer(),
  lockHolder(),
  receiverFaults(),
  paced(SIGNUPS_PER_SECOND, over, signUp),
  paced(3, over, confirm),
  paced(1, over, linkAgain),
  paced(2, over, consoleRead),
]);
const chaosSeconds = (Date.now() - started) / 1_000;
for (const index of [0, 1]) if (!instances[index]) await start(index);
console.log(`Chaos over after ${chaosSeconds.toFixed(0)} s; the receivers have recovered; waiting for every delivery ...`);

// ---- After: every promise kept ----

type OutboxRow = { id: string; kind: string; status: string; attempts: number };
const outbox = () => reader.prepare("SELECT id, kind, status, attempts FROM outbox").all() as OutboxRow[];
const recoveryStarted = Date.now();
while (Date.now() - recoveryStarted < 180_000 && outbox().some((row) => row.status === "pending")) await sleep(1_000);
const recoverySeconds = (Date.now() - recoveryStarted) / 1_000;

const failures: string[] = [];
const stored = new Set(reader.prepare("SELECT email FROM waitlist_entries").pluck().all() as string[]);
const lost = acknowledged.filter((email) => !stored.has(email));
const storedAfter503 = refused.filter((email) => stored.has(email));
if (acknowledged.length === 0) failures.push("no sign-up was acknowledged at all");
if (lost.length) failures.push(`${lost.length} acknowledged sign-ups are not stored, e.g. ${lost.slice(0, 3).join(", ")}`);
if (storedAfter503.length)
  failures.push(`${storedAfter503.length} sign-ups answered 503 were stored, e.g. ${storedAfter503.slice(0, 3).join(", ")}`);
const unconfirmed = reader.prepare("SELECT email FROM waitlist_entries WHERE confirmed_at IS NULL").pluck().all() as string[];
const confirmationsLost = unconfirmed.filter((email) => confirmed.has(email));
if (confirmationsLost.length) failures.push(`${confirmationsLost.length} confirmations answered 303 are not recorded`);
if (unexpected.length) failures.push(`${unexpected.length} unexpected answers, e.g. ${unexpected.slice(0, 5).join("; ")}`);

for (const server of instances) if (server) keepLog(server);
await Promise.all(instances.map((server) => server?.stop()));
const log = logs.join("\n");
const errorLog = errorLogs.join("\n");
const logged500 = log.split("\n").filter((line) => line.includes('"status":500')).length;
if (logged500) {
  // What the servers said about it: their fault lines (the request's own line has only the status),
  // and what Next printed of the error.
  const faults500 = log
    .split("\n")
    .filter((line) => line.includes('"fault":"unexpected"'))
    .slice(0, 3);
  const printed = errorLog.trim();
  failures.push(
    `${logged500} requests logged with status 500${faults500.length ? `; the server logged:\n    ${faults500.map((line) => line.slice(0, 1500)).join("\n    ")}` : ""}` +
      (printed ? `\n  and printed on standard error:\n    ${printed.slice(0, 3_000).replaceAll("\n", "\n    ")}` : ""),
  );
}
const thrown = `${log}\n${errorLog}`.split("\n").filter((line) => /uncaught|unhandled/i.test(line));
if (thrown.length) failures.push(`thrown in a server: ${thrown[0]!.slice(0, 300)}`);

const rows = outbox();
const notDelivered = rows.filter((row) => row.status !== "delivered");
if (notDelivered.length)
  failures.push(
    `${notDelivered.length} deliveries not delivered (${[...new Set(notDelivered.map((row) => row.status))].join(", ")}) ${recoverySeconds.toFixed(0)} s after the receivers recovered`,
  );
const emailRows = rows.filter((row) => row.kind !== "webhook");
const webhookRows = rows.filter((row) => row.kind === "webhook");
const missingEmails = emailRows.filter((row) => row.status === "delivered" && !smtp.arrivals.counts.has(row.id));
const missingWebhooks = webhookRows.filter((row) => row.status === "delivered" && !webhook.arrivals.counts.has(row.id));
if (missingEmails.length) failures.push(`${missingEmails.length} emails recorded as delivered never arrived`);
if (missingWebhooks.length) failures.push(`${missingWebhooks.length} webhooks recorded as delivered never arrived`);
const strangers = [...smtp.arrivals.counts.keys(), ...webhook.arrivals.counts.keys()].filter((id) => !rows.some((row) => row.id === id));
if (strangers.length) failures.push(`${strangers.length} arrivals that no delivery owed`);

// A repeat needs an attempt the receiver accepted whose record was then cut off: by a kill, or by a
// lock held for as long as the lease (4 s here, 60 s by default), after which another instance
// sends it again. One interruption can cut off at most what one instance has claimed of a kind:
// a batch (lib/outbox/worker.ts, 50), recorded together. More repeats of a kind than that would
// be a claim or lease bug sending twice. (The first version allowed one repeat per interruption;
// a rehearsal met 50 webhook repeats, one whole batch, with 35 interruptions.)
const DELIVERY_BATCH = 50;
const interruptions = (faults["instance killed (SIGKILL)"] ?? 0) + (faults["write lock held by another process"] ?? 0);
for (const [kind, n] of [
  ["email", smtp.arrivals.repeats()],
  ["webhook", webhook.arrivals.repeats()],
] as const) {
  if (n > interruptions * DELIVERY_BATCH)
    failures.push(
      `${n} repeated ${kind} deliveries, more than the ${interruptions} kills and lock holds could cut off (a batch of ${DELIVERY_BATCH} each)`,
    );
}

const integrity = reader.pragma("integrity_check", { simple: true });
if (integrity !== "ok") failures.push(`integrity_check: ${integrity}`);
reader.close();
await smtp.close();
await webhook.close();

// ---- The figures ----

const p = (values: number[], q: number) => {
  if (!values.length) return "-";
  const sorted = [...values].sort((a, b) => a - b);
  return `${Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!)} ms`;
};
const statuses = (kind: Kind) =>
  [...answers[kind].entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status === 0 ? "no answer" : status} x${n}`)
    .join(", ");
console.log(`\nFaults injected in ${chaosSeconds.toFixed(0)} s:`);
for (const [name, n] of Object.entries(faults).sort()) console.log(`  ${name.padEnd(38)} ${n}`);
console.log("\nAnswers (p50 / p99 of those answered):");
for (const kind of Object.keys(answers) as Kind[])
  console.log(`  ${kind.padEnd(8)} ${p(durations[kind], 0.5)} / ${p(durations[kind], 0.99)}   ${statuses(kind)}`);
console.log(
  `\nSign-ups: ${acknowledged.length} acknowledged (201), ${lost.length} of them lost; ${refused.length} answered 503, ${storedAfter503.length} of them stored; ${stored.size} rows in all`,
);
console.log(
  `Deliveries: ${emailRows.length} emails and ${webhookRows.length} webhooks owed, ${rows.length - notDelivered.length} delivered within ${recoverySeconds.toFixed(0)} s of recovery; ` +
    `arrived: ${smtp.arrivals.counts.size} emails, ${webhook.arrivals.counts.size} webhooks; ` +
    `repeats (an attempt accepted but its record cut off by a kill or a lock; the id lets the receiver drop it): ${smtp.arrivals.repeats()} emails, ${webhook.arrivals.repeats()} webhooks`,
);
console.log(`Confirmations: ${confirmed.size} entries confirmed (303), ${confirmationsLost.length} of them not recorded`);
console.log(`Logged 500s: ${logged500}; thrown in a server: ${thrown.length}; integrity_check: ${integrity}`);

if (failures.length) {
  console.error(`\nChaos run FAILED:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.log("\nChaos run passed: nothing acknowledged lost, nothing refused stored, no 500, every delivery made.");
