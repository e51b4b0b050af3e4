/**
 * Unexpected failures, produced in the real database rather than faked: a
 * trigger that makes SQLite refuse the insert (a constraint that is not the
 * email's unique index, so it must not be mistaken for a duplicate), and a
 * table that is gone. The visitor gets a generic
 * 500; the log gets enough to debug, and none of the visitor's phone or notes.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST } from "@/app/api/waitlist/route";
import { errorMessage } from "@/lib/http";
import { getDatabase } from "@/lib/db";
import { captureLog } from "@/lib/log";
import { holdWriteLock, setUpTestDatabase, storedEntries } from "../support/database";
import { answerOf, jsonRequest, signupBody } from "../support/requests";

const { file: databaseFile } = setUpTestDatabase();

/** Changes the test's database through the site's own client (and so its driver). */
async function sql(statement: string) {
  await getDatabase().$executeRawUnsafe(statement);
}

/**
 * A refusal whose message carries what the visitor typed, to prove the log leaves it out.
 * libSQL's SQLite (3.44) takes only a literal in RAISE, so there the message is plain.
 */
const REFUSAL_MESSAGE =
  process.env.DATABASE_DRIVER === "libsql" ? "'disk refused'" : "'disk refused ' || NEW.phone || ' ' || NEW.notes || ' ' || NEW.email";

describe("POST /api/waitlist when the database fails", () => {
  let captured: ReturnType<typeof captureLog>;

  beforeEach(() => {
    captured = captureLog();
  });
  afterEach(async () => {
    captured.stop();
    await sql("DROP TRIGGER IF EXISTS refuse_inserts");
  });

  it("answers 500, not 409, to a constraint failure other than a duplicate, and logs it without the visitor's phone or notes", async () => {
    await sql(`CREATE TRIGGER refuse_inserts BEFORE INSERT ON waitlist_entries
         BEGIN SELECT RAISE(ABORT, ${REFUSAL_MESSAGE}); END`);
    const signup = signupBody({ phone: "+1 555 867 5309", notes: "Gate code 4471, dog in yard" });

    const answer = await answerOf(await POST(jsonRequest(signup)));

    expect(answer.status).toBe(500);
    expect(answer.body.error).toBe("Something went wrong on our side. Please try again later.");
    expect(JSON.stringify(answer.body)).not.toMatch(/disk refused|at .*\.ts|Error:/);
    expect(answer.body.request_id).toMatch(/^[0-9a-f-]{36}$/);

    const failures = captured.lines.filter((line) => line.fault === "unexpected");
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: "error", request_id: answer.body.request_id, business_type: "hvac" });
    const line = JSON.stringify(failures[0]);
    expect(line).toContain("lib/waitlist/store.ts"); // where it failed
    // The whole number and its tail, not "867" alone: a pid or a request id can hold those digits.
    expect(line).not.toContain("867 5309");
    expect(line).not.toContain("Gate code");
    expect(line).not.toContain(signup.email);
  });

  it("fails only the refused sign-up when it is committed together with others (group commit)", async () => {
    await sql(`CREATE TRIGGER refuse_inserts BEFORE INSERT ON waitlist_entries
         WHEN NEW.email_normalized LIKE '%@fail.example' BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    // Sent together, so they are written in one transaction.
    const answers = await Promise.all(
      ["one@ok.example", "two@fail.example", "three@ok.example", "one@ok.example"].map(
        async (email) => (await POST(jsonRequest(signupBody({ email })))).status,
      ),
    );
    expect(answers).toEqual([201, 500, 201, 409]);
    expect((await storedEntries()).map((row) => row.email)).toEqual(["one@ok.example", "three@ok.example"]);
  });

  it("answers 500 when the table is missing, and says so in the log", async () => {
    await sql("ALTER TABLE waitlist_entries RENAME TO waitlist_entries_moved");
    try {
      const answer = await answerOf(await POST(jsonRequest(signupBody())));
      expect(answer.status).toBe(500);
      expect(answer.body.error).toBe("Something went wrong on our side. Please try again later.");
      expect(captured.text()).toMatch(/waitlist_entries/);
    } finally {
      await sql("ALTER TABLE waitlist_entries_moved RENAME TO waitlist_entries");
    }
  });
});

describe("POST /api/waitlist when the database is temporarily unavailable", () => {
  // Another instance's commit or the operator shell's change holds the lock for moments. On
  // libSQL, whose embedded engine does not wait for a lock, these sign-ups were answered 503 at once.
  it("waits out a short lock held by another process: 201 for each sign-up once it is released, not 503", async () => {
    const lock = await holdWriteLock(databaseFile);
    const captured = captureLog();
    try {
      const released = new Promise<void>((resolve) => setTimeout(() => void lock.release().then(resolve), 300));
      const started = Date.now();
      const answers = await Promise.all(
        [signupBody(), signupBody(), signupBody()].map(async (signup) => answerOf(await POST(jsonRequest(signup)))),
      );
      await released;
      expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
      // They were answered only after the lock was gone, and well inside the busy timeout.
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(captured.lines.filter((line) => line.fault === "database_busy")).toEqual([]);
      expect(await storedEntries()).toHaveLength(3);
    } finally {
      captured.stop();
      await lock.release();
    }
  });

  it("answers 503 with Retry-After, not 500, while another process holds the write lock, stores nothing, and 201 once it is released", async () => {
    const lock = await holdWriteLock(databaseFile);
    const captured = captureLog();
    try {
      const signups = [signupBody(), signupBody(), signupBody()];
      const answers = await Promise.all(signups.map(async (signup) => POST(jsonRequest(signup))));
      for (const response of answers) {
        expect(response.status).toBe(503);
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(await response.json()).toEqual({ error: errorMessage("temporarily_unavailable"), code: "temporarily_unavailable" });
      }
      expect(captured.lines).toContainEqual(expect.objectContaining({ fault: "database_busy" }));
      await lock.release();
      expect(await storedEntries()).toEqual([]);
      // The same sign-ups, sent again: nothing of them was stored, and their questions were not used up.
      expect(await Promise.all(signups.map(async (signup) => (await POST(jsonRequest(signup))).status))).toEqual([201, 201, 201]);
    } finally {
      captured.stop();
      await lock.release();
    }
  });
});
