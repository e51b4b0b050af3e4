/**
 * GET /api/health through the real route, on a real migrated database: 200
 * when the database answers with exactly the shipped migrations, 503 otherwise.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { captureLog } from "@/lib/log";
import * as healthRoute from "@/app/api/health/route";
import { GET } from "@/app/api/health/route";
import * as challengeRoute from "@/app/api/waitlist/challenge/route";
import * as entryRoute from "@/app/api/waitlist/entry/route";
import * as signupRoute from "@/app/api/waitlist/route";
import { getDatabase } from "@/lib/db";
import { checkHealth, shippedMigrations } from "@/lib/health";
import { countSendingRefusals, sendingProblems } from "@/lib/waitlist/bounces";
import { setUpTestDatabase } from "../support/database";

setUpTestDatabase();

afterEach(() => vi.restoreAllMocks());

describe("GET /api/health", () => {
  it("answers 200 with the database and migrations in order, never cached", async () => {
    const response = await GET();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const shipped = shippedMigrations();
    expect(shipped.length).toBeGreaterThanOrEqual(4);
    expect(await response.json()).toEqual({
      status: "ok",
      database: "ok",
      migrations: { applied: shipped.length, shipped: shipped.length, pending: [], unknown: [] },
      problems: [],
    });
  });

  it("reports a burst of one refusal by the mail system as a sending problem, and stays 200 (issue 61)", async () => {
    await countSendingRefusals(
      getDatabase(),
      Array.from({ length: 4 }, () => "554 5.7.1 at RCPT TO"),
    );
    expect(await (await GET()).json()).not.toHaveProperty("mail");
    await countSendingRefusals(getDatabase(), ["554 5.7.1 at RCPT TO", "DSN 5.7.26"]);
    const response = await GET();
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: "ok",
      mail: { status: "refused", refused: [{ code: "554 5.7.1 at RCPT TO", messages: 5 }] },
    });
    // An hour later it has passed.
    expect(await sendingProblems(getDatabase(), new Date(Date.now() + 61 * 60_000))).toEqual([]);
  });

  it("answers 503 when a migration this version ships is not applied", async () => {
    const [last] = shippedMigrations().slice(-1);
    const database = getDatabase();
    const [row] = await database.$queryRaw<Record<string, unknown>[]>`SELECT * FROM _prisma_migrations WHERE migration_name = ${last}`;
    await database.$executeRaw`DELETE FROM _prisma_migrations WHERE migration_name = ${last}`;
    try {
      const response = await GET();
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        status: "unavailable",
        migrations: { pending: [last] },
        problems: ["1 migration(s) not applied: run npm run db:migrate"],
      });
    } finally {
      await database.$executeRaw`INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
        VALUES (${row!.id}, ${row!.checksum}, ${row!.finished_at}, ${row!.migration_name}, NULL, NULL, ${row!.started_at}, ${row!.applied_steps_count})`;
    }
  });

  it("lists, without failing, a migration the database has and this version does not ship (mid rolling upgrade)", async () => {
    const shipped = shippedMigrations();
    const health = await checkHealth(getDatabase, shipped.slice(0, -1));
    expect(health).toMatchObject({ status: "ok", migrations: { unknown: shipped.slice(-1) }, problems: [] });
  });

  it("answers 503 without details when the database does not answer, and logs why", async () => {
    const captured = captureLog();
    const health = await checkHealth(() => {
      throw new Error("There is no waitlist database at /srv/missing.db yet.");
    });
    captured.stop();
    expect(health).toEqual({ status: "unavailable", database: "unreachable", problems: ["the database did not answer"] });
    expect(captured.text()).toContain("/srv/missing.db");
  });
});

describe("methods other than the one each route takes", () => {
  it.each([
    ["/api/health", healthRoute, "GET", "Use GET to check this instance's health."],
    ["/api/waitlist/challenge", challengeRoute, "GET", "Use GET to get a new security question."],
    ["/api/waitlist", signupRoute, "POST", "Use POST to join the waitlist."],
    ["/api/waitlist/entry", entryRoute, "POST", "Use the Confirm and Remove buttons on your waitlist page (they POST a form)."],
  ] as const)("%s answers 405 with its own Allow and a sentence about itself", async (_, route, allow, sentence) => {
    const response = await (allow === "GET" ? route.POST : route.GET)();
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow === "GET" ? "GET, HEAD" : allow);
    const answered = response.headers.get("content-type")?.startsWith("application/json")
      ? ((await response.json()) as { error: string; code: string })
      : { error: await response.text(), code: response.headers.get("x-error-code") };
    expect(answered).toEqual({ error: `This address does not take that method. ${sentence}`, code: "method_not_allowed" });
  });
});

describe("a database that does not answer in time", () => {
  it("is a 503 within the deadline, named busy", async () => {
    const started = performance.now();
    const health = await checkHealth(() => ({ $queryRaw: () => new Promise(() => {}) }) as never, shippedMigrations(), 200);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(health).toMatchObject({ status: "unavailable", database: "busy" });
  });
});
