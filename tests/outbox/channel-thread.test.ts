/**
 * The sending thread (lib/outbox/channel-thread.ts): channels built in a thread of their own at a
 * lower CPU priority, attempts passed to it and their outcomes back, an abort carried over, and a
 * thread that dies ending its attempts as retryable failures and replaced at the next attempt,
 * `ready` saying when the channels are built, attempts that reach the thread too late not
 * started, and an answer that came in while the thread was starved past its deadline taken.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { threadId } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import type { WaitlistEntry } from "@/lib/generated/prisma/client";
import { channelsInThread } from "@/lib/outbox/channel-thread";
import type { Attempted, Delivery } from "@/lib/outbox/worker";

const entry = { id: 1, email: "thread@example.com", createdAt: new Date() } as WaitlistEntry;
const delivery = (event: string): Delivery => ({ id: `d-${event}`, kind: "webhook", entryId: 1, attempt: 1, event, payload: null });

const fixture = path.resolve("tests/fixtures/thread-channels.ts");

/** Far enough away not to matter, for the attempts that are not about deadlines. */
const later = () => Date.now() + 60_000;

function channel() {
  const { webhook } = channelsInThread({ module: fixture, config: { tag: "from the test" }, kinds: ["webhook"] }).channels;
  return (event: string, signal = new AbortController().signal, deadline = later()) => webhook!(delivery(event), entry, signal, deadline);
}

const answer = (outcome: Attempted) =>
  JSON.parse((outcome as { problem: string }).problem) as { tag: string; threadId: number; niceness: number; builtAtNiceness: number };

describe("the sending thread", () => {
  it("runs the channels built from the settings given, in a thread of lower priority than the site's", async () => {
    const send = channel();
    const seen = answer(await send("created"));
    expect(seen.tag).toBe("from the test");
    expect(seen.threadId).not.toBe(threadId);
    expect(seen.niceness).toBeGreaterThan(0);
    // Built before it lowered itself: loading the modules is most of its work, done once at start.
    expect(seen.builtAtNiceness).toBeLessThan(seen.niceness);
  });

  it("does not start an attempt that waited in the thread until its deadline, and ends one that runs past it", async () => {
    const send = channel();
    await send("created"); // built
    // The thread is kept busy for 400 ms; the next attempt's deadline passes while it waits behind.
    const busy = send("busy:400");
    const late = send("created", new AbortController().signal, Date.now() + 150);
    expect(await late).toEqual({
      delivered: false,
      retry: true,
      problem: "not started: the sending thread was busy until its deadline",
      atDeadline: true,
    });
    await busy;
    // Started in time, still waiting at its deadline, and no abort from the main side: the thread ends it.
    expect(await send("wait", new AbortController().signal, Date.now() + 300)).toEqual({
      delivered: false,
      retry: true,
      problem: "aborted: the attempt's deadline passed",
      atDeadline: true,
    });
  });

  it("takes an answer that came in while the thread was kept from running past the deadline, not the deadline", async () => {
    const receiver = createServer((request, response) => request.resume().on("end", () => response.end()));
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const { webhook } = channelsInThread({ module: fixture, config: { tag: "starved" }, kinds: ["webhook"] }).channels;
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
      const starved = (deadline: number, signal = new AbortController().signal) =>
        webhook!({ ...delivery("starved:1500"), payload: url }, entry, signal, deadline);
      await starved(later()); // built, and the connection's code warm
      // The thread's own timer: due, like the answer, when the thread runs again.
      // 700 ms to start in: a thread at niceness 19 on a busy 2-core machine waited past 200 (CI).
      expect(await starved(Date.now() + 700)).toEqual({ delivered: true });
      // The main side's abort, waiting in the thread's queue beside the answer.
      const controller = new AbortController();
      const outcome = starved(later(), controller.signal);
      setTimeout(() => controller.abort(new Error("the deadline passed")), 700);
      expect(await outcome).toEqual({ delivered: true });
    } finally {
      receiver.close();
    }
  });

  it("carries an abort (the attempt's deadline, a shutdown) to the attempt in the thread", async () => {
    const send = channel();
    const controller = new AbortController();
    const outcome = send("wait", controller.signal);
    setTimeout(() => controller.abort(new Error("the deadline passed")), 50);
    expect(await outcome).toEqual({ delivered: false, retry: true, problem: "aborted: the deadline passed" });
  });

  it("ends the attempts of a thread that dies as retryable, and starts a new one for the next", async () => {
    const send = channel();
    const first = answer(await send("created")).threadId;
    const waiting = send("wait");
    expect(await send("exit")).toEqual({ delivered: false, retry: true, problem: "the sending thread stopped" });
    expect(await waiting).toEqual({ delivered: false, retry: true, problem: "the sending thread stopped" });
    expect(answer(await send("created")).threadId).not.toBe(first);
  });

  it("is ready only once its channels are built, and says so when they cannot be", async () => {
    const started = Date.now();
    const slow = channelsInThread({ module: fixture, config: { tag: "slow", buildMs: 800 }, kinds: ["webhook"] });
    await slow.ready();
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    expect(answer(await slow.channels.webhook!(delivery("created"), entry, new AbortController().signal, later())).tag).toBe("slow");

    const broken = channelsInThread({ module: fixture, config: { tag: "broken", broken: true }, kinds: ["webhook"] });
    await expect(broken.ready()).rejects.toThrow(/cannot be built/);
  });

  it("starts a new thread when asked whether it is ready after the last one died", async () => {
    const thread = channelsInThread({ module: fixture, config: { tag: "again" }, kinds: ["webhook"] });
    await thread.ready();
    const send = (event: string) => thread.channels.webhook!(delivery(event), entry, new AbortController().signal, later());
    const first = answer(await send("created")).threadId;
    await send("exit");
    await thread.ready();
    expect(answer(await send("created")).threadId).not.toBe(first);
  });
});
