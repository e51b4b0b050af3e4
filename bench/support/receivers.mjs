/**
 * The receivers a launch-day run delivers to (bench/signup-load.ts, BENCH_DELIVERIES): an SMTP
 * server (smtp-server) and a webhook receiver (node:http), in a process of their own
 * (./launch-receivers.ts starts it), so that their work never holds up the load generator's event
 * loop nor counts as the site's. Plain JavaScript: it runs on node alone, without tsx.
 *
 * Its first argument says how the mail server behaves:
 *   "fast"     accepts every message at once;
 *   "slow"     accepts each message 200 ms after its data arrived;
 *   "refusing" refuses every tenth new message once (451, try again later), accepting it when
 *              the site tries it again: a retry storm of a tenth of the mail.
 * The webhook receiver answers 204 at once.
 *
 * It counts what it accepted per delivery id (the Message-ID's local part, the webhook-id), and
 * answers { type: "report" } with those counts and when the last one arrived.
 */
import { createServer } from "node:http";
import { SMTPServer } from "smtp-server";

const SLOW_MS = 200;
const mode = process.argv[2] ?? "fast";

const accepted = new Map();
let lastArrival = 0;
let refused = 0;
let newMessages = 0;
const refusedOnce = new Set();

function arrived(id) {
  accepted.set(id, (accepted.get(id) ?? 0) + 1);
  lastArrival = Date.now();
}

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  size: 1024 * 1024,
  onData(stream, _session, callback) {
    const chunks = [];
    stream.on("data", (chunk) => chunks.push(chunk));
    stream.on("end", () => {
      const id = /^Message-ID:\s*<([^@>]+)@/im.exec(Buffer.concat(chunks).toString("utf8"))?.[1] ?? "?";
      if (mode === "refusing" && !accepted.has(id) && !refusedOnce.has(id)) {
        newMessages += 1;
        if (newMessages % 10 === 0) {
          refusedOnce.add(id);
          refused += 1;
          return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
        }
      }
      const accept = () => {
        arrived(id);
        callback();
      };
      if (mode === "slow") setTimeout(accept, SLOW_MS);
      else accept();
    });
  },
});
smtp.on("error", () => {});

const webhook = createServer((request, response) => {
  request.on("error", () => {});
  request.resume();
  request.on("end", () => {
    arrived(String(request.headers["webhook-id"]));
    response.writeHead(204).end();
  });
});

const smtpPort = await new Promise((resolve) => smtp.listen(0, "127.0.0.1", () => resolve(smtp.server.address().port)));
const webhookPort = await new Promise((resolve) => webhook.listen(0, "127.0.0.1", () => resolve(webhook.address().port)));

process.on("message", (message) => {
  if (message?.type === "report") process.send({ type: "report", accepted: [...accepted], lastArrival, refused });
});
// The benchmark going away (its IPC channel closing) ends the receivers too.
process.on("disconnect", () => process.exit(0));
process.send({ type: "ready", smtpPort, webhookPort });
