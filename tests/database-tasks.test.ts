/**
 * Database tasks (lib/db/tasks.ts): on the embedded file's default driver a
 * task runs in the database thread, on that thread's Prisma Client over the
 * same connection; on libSQL, here. Either way it sees what the client sees,
 * its values come back whole, and a failure says where it happened and who asked.
 */
import { describe, expect, it } from "vitest";
import { getDatabase, runTask, type DatabaseTask } from "@/lib/db";
import { RATE_LIMIT_TASKS } from "@/lib/security/rate-limit";
import { failingStatement, whereAmI } from "./support/thread-task";
import { countEntries, setUpTestDatabase } from "./support/database";
import { addToWaitlist, STORE_TASKS } from "@/lib/waitlist/store";
import { validSignup } from "./support/requests";
import { waitlistSignupSchema } from "@/lib/waitlist/schema";

setUpTestDatabase();

const WHERE_AM_I: DatabaseTask<{ tag: string; big: bigint }, Awaited<ReturnType<typeof whereAmI>>> = { module: "tests/support/thread-task.ts", name: "whereAmI", run: whereAmI };
const FAILING: DatabaseTask<undefined, never> = { module: "tests/support/thread-task.ts", name: "failingStatement", run: failingStatement };
const inThread = process.env.DATABASE_DRIVER !== "libsql";

describe("database tasks", () => {
  it(`run ${inThread ? "in the database thread" : "in this thread"}, on the same database, values kept`, async () => {
    await addToWaitlist(waitlistSignupSchema.parse(validSignup()));
    const result = await runTask(getDatabase(), WHERE_AM_I, { tag: "hello", big: 2n ** 60n });
    expect(result.mainThread).toBe(!inThread);
    expect(result.input).toEqual({ tag: "hello", big: 2n ** 60n });
    expect(Number(result.entries)).toBe(await countEntries());
  });

  it("fail with the database's error, its code kept, naming the task's file and the caller's", async () => {
    const failure = await runTask(getDatabase(), FAILING, undefined).then(
      () => null,
      (error: unknown) => error as Error & { code?: string },
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message).toContain("no such table");
    expect(failure!.code).toBe("P2010");
    expect(failure!.stack).toContain("tests/support/thread-task.ts");
    expect(failure!.stack).toContain("tests/database-tasks.test.ts");
  });

  it("name the module and export they run: every task the site declares is found where the thread looks", async () => {
    const tasks: DatabaseTask<never, unknown>[] = [...STORE_TASKS, ...RATE_LIMIT_TASKS];
    for (const task of tasks) {
      const loaded = (await import(/* @vite-ignore */ `../${task.module}`)) as Record<string, unknown>;
      expect(loaded[task.name], `${task.module} ${task.name}`).toBe(task.run);
    }
  });
});
