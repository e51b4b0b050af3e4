/**
 * Context for the sign-up benchmark: a bare node:http server doing what the
 * sign-up route's core does (read the body, parse it with the site's zod
 * schema, insert with the site's store into SQLite) with no framework at all.
 *
 *   node --import tsx bench/baseline-server.ts --port N   (DATABASE_URL names the file)
 */
import { createServer } from "node:http";
import { openDatabase } from "../lib/db";
import { databaseFileFromUrl, parseEnv } from "../lib/env";
import { waitlistSignupSchema } from "../lib/waitlist/schema";
import { addToWaitlist } from "../lib/waitlist/store";

const port = Number(process.argv[process.argv.indexOf("--port") + 1]);
const db = openDatabase(databaseFileFromUrl(parseEnv().DATABASE_URL));

function send(response: import("node:http").ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  response.end(JSON.stringify(body));
}

createServer((request, response) => {
  if (request.method !== "POST") return send(response, 200, { ready: true });
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    try {
      const parsed = waitlistSignupSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      if (!parsed.success) return send(response, 400, { error: "invalid" });
      const { outcome } = addToWaitlist(parsed.data, null, db);
      send(response, outcome === "created" ? 201 : 409, outcome === "created" ? { ok: true } : { error: outcome });
    } catch {
      send(response, 500, { error: "unexpected" });
    }
  });
}).listen(port, "127.0.0.1");
