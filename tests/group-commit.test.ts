/**
 * The bounds of group commit (lib/group-commit.ts): how many items may wait for
 * the next batch, and a caller's deadline while its item waits. Both refuse an
 * item only before it is written, so "not stored" is always true when said.
 */
import { describe, expect, it } from "vitest";
import { GroupCommit, NotWritten } from "@/lib/group-commit";

/** A writer whose batches finish when the test says so. */
function controlledWriter() {
  const batches: number[][] = [];
  const finishers: (() => void)[] = [];
  const writer = new GroupCommit<number, number>(
    (items) =>
      new Promise((resolve) => {
        batches.push(items);
        finishers.push(() => resolve(items.map((item) => ({ ok: item * 10 }))));
      }),
    { maxPending: 3 },
  );
  const finishNext = () => finishers.shift()?.();
  return { writer, batches, finishNext };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Waits until the writer has been handed `n` batches. */
async function batchesWritten(batches: number[][], n: number) {
  while (batches.length < n) await turn();
}

describe("GroupCommit", () => {
  it("refuses at once (overloaded) what would wait beyond maxPending, and writes the rest", async () => {
    const { writer, batches, finishNext } = controlledWriter();
    const first = writer.submit(1);
    await turn(); // 1 is being written; the next ones wait
    const waiting = [2, 3, 4, 5, 6].map((item) => writer.submit(item).catch((error: unknown) => error));
    expect(writer.waiting).toBe(3);
    finishNext();
    expect(await first).toBe(10);
    await batchesWritten(batches, 2);
    finishNext();
    const results = await Promise.all(waiting);
    expect(results.slice(0, 3)).toEqual([20, 30, 40]);
    for (const refused of results.slice(3)) expect(refused).toEqual(new NotWritten("overloaded"));
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it("takes an item out unwritten when its caller's deadline passes while it waits, but never once its batch is being written", async () => {
    const { writer, batches, finishNext } = controlledWriter();
    const writing = writer.submit(1, Date.now() + 150);
    await turn(); // 1 is in the batch being written: its deadline no longer matters
    const waiting = writer.submit(2, Date.now() + 150).catch((error: unknown) => error);
    const other = writer.submit(3);
    const started = Date.now();
    expect(await waiting).toEqual(new NotWritten("request_deadline"));
    expect(Date.now() - started).toBeLessThan(600);
    finishNext();
    expect(await writing).toBe(10);
    await batchesWritten(batches, 2);
    finishNext();
    expect(await other).toBe(30);
    expect(batches).toEqual([[1], [3]]);
    expect(await writer.submit(4, Date.now() - 1).catch((error: unknown) => error)).toEqual(new NotWritten("request_deadline"));
  });
});
