/**
 * The unit tests run their files one after another in a few processes (vitest.config.ts: not
 * isolated, which halves their time), so after each file the process-wide objects it made (the
 * database client, handlers holding it, the secret) are closed and forgotten: the next file starts
 * as in a new process, with its own database and environment.
 *
 * Forgotten, not stopped: nothing here holds a timer that would outlive its file. The one object
 * that could, the delivery worker, has no channel in these tests (their environment sets no
 * SMTP_URL or webhook) and is never started; the tests that deliver build workers of their own.
 */
import { afterAll } from "vitest";
import { closeDatabase } from "@/lib/db";
import { forgetAllSingletons } from "@/lib/singleton";

afterAll(async () => {
  await closeDatabase();
  forgetAllSingletons();
});
