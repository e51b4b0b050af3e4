/**
 * Database tasks for tests/database-tasks.test.ts (lib/db/tasks.ts): loaded by
 * the database thread from source, as the site's own tasks are.
 */
import { isMainThread } from "node:worker_threads";
import type { PrismaClient } from "@/lib/generated/prisma/client";

/** Where the task ran, what it was given, and what the database it was handed holds. */
export async function whereAmI(database: PrismaClient, input: { tag: string; big: bigint }): Promise<{ mainThread: boolean; input: { tag: string; big: bigint }; entries: bigint | number }> {
  const [row] = await database.$queryRaw<{ n: bigint | number }[]>`SELECT count(*) AS n FROM waitlist_entries`;
  return { mainThread: isMainThread, input, entries: row!.n };
}

/** A statement SQLite refuses. */
export async function failingStatement(database: PrismaClient): Promise<never> {
  await database.$queryRaw`SELECT * FROM no_such_table`;
  throw new Error("unreachable: the statement above fails");
}
