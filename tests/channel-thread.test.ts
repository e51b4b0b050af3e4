/**
 * The sending thread (lib/outbox/channel-thread.ts): channels built in a thread of their own at a
 * lower CPU priority, attempts passed to it and their outcomes back, an abort carried over, and a
 * thread that dies ending its attempts as retryable failures and replaced at the next attempt, and
 * `ready` saying when the channels are built.
 */
import path from "node:path";
import { threadId } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import type { WaitlistEntry } from "@/lib/generated/prisma/client";
import { channelsInThread } from "@/lib/outbox/channel-thread";
import type { Attempted, Delivery } from "@/lib/outbox/worker";

const entry = { id: 1, email: "thread@example.com", createdAt: new Date() } as WaitlistEntry;
const delivery = (event: string): Delivery => ({ id: `d-${event}`, kind: "webhook", entryId: 1, attempt: 1, event, payload: null });

const fixture = path.resolve("tests/fixtures/thread-channels.ts");

function channel() {
  const { webhook } = channelsInThread({ module: fixture, config: { tag: "from the test" }, kinds: ["webhook"] }).channels;
  return (event: string, signal = new AbortController().signal) => webhook!(delivery(event), entry, signal);
}

const answer = (outcome: Attempted) =>
  JSON.parse((outcome as { problem: string }).problem) as { tag: string; threadId: number; niceness: number };

describe("the sending thread", () => {
  it("runs the channels built from the settings given, in a thread of lower priority than the site's", async () => {
    const send = channel();
    const seen = answer(await send("created"));
    expect(seen.tag).toBe("from the test");
    expect(seen.threadId).not.toBe(threadId);
    expect(seen.niceness).toBeGreaterThan(0);
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
    expect(answer(await slow.channels.webhook!(delivery("created"), entry, new AbortController().signal)).tag).toBe("slow");

    const broken = channelsInThread({ module: fixture, config: { tag: "broken", broken: true }, kinds: ["webhook"] });
    await expect(broken.ready()).rejects.toThrow(/cannot be built/);
  });

  it("starts a new thread when asked whether it is ready after the last one died", async () => {
    const thread = channelsInThread({ module: fixture, config: { tag: "again" }, kinds: ["webhook"] });
    await thread.ready();
    const send = (event: string) => thread.channels.webhook!(delivery(event), entry, new AbortController().signal);
    const first = answer(await send("created")).threadId;
    await send("exit");
    await thread.ready();
    expect(answer(await send("created")).threadId).not.toBe(first);
  });
});
