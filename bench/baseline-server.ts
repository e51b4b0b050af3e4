/**
 * Context for the sign-up benchmark: a bare node:http server doing what the
 * sign-up route's core does (read the body, parse it with the site's zod
 * schema, insert into SQLite) with no framework and no ORM at all: one
 * prepared better-sqlite3 INSERT per request. It shows what the machine can do,
 * not what the site should be (the site's data layer is Prisma Client).
 *
 *   node --import tsx bench/baseline-server.ts --port N   (DATABASE_URL names the file)
 */
import { createServer } from "node:http";
import Database from "better-sqlite3";
import { databaseFileFromUrl, parseEnv } from "../lib/env";
import { normalizeEmail, waitlistSignupSchema } from "../lib/waitlist/schema";
import { timestamp } from "../lib/time";

const port = Number(process.argv[process.argv.indexOf("--port") + 1]);
const db = new Database(databaseFileFromUrl(parseEnv().DATABASE_URL), { fileMustExist: true, timeout: 5_000 });
db.pragma("synchronous = FULL"); // as the site's connections
const insert = db.prepare(`
  INSERT INTO waitlist_entries
    (company_name, contact_name, email, email_normalized, phone, business_type, company_size, notes, created_at)
  VALUES (@company_name, @contact_name, @email, @email_normalized, @phone, @business_type, @company_size, @notes, @created_at)
  ON CONFLICT DO NOTHING`);

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
      const { changes } = insert.run({ ...parsed.data, email_normalized: normalizeEmail(parsed.data.email), created_at: timestamp() });
      send(response, changes === 1 ? 201 : 409, changes === 1 ? { ok: true } : { error: "duplicate" });
    } catch {
      send(response, 500, { error: "unexpected" });
    }
  });
}).listen(port, "127.0.0.1");
