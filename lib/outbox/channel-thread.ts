/**
 * Channels that run in a thread of their own, at a lower CPU priority than the site. Composing and
 * sending a delivery (a signed post, a MIME message over SMTP) took as much of the main thread as
 * the sign-up it was about, so at launch volume the deliveries took the time the visitors' requests
 * needed (docs/performance.md, "Launch day"). In the thread they run on a spare core, or in what
 * the site leaves of one, and the main thread only passes each attempt on and reads its outcome.
 *
 * The thread is started with the channels, and again at the next attempt (or the next `ready()`)
 * after it dies; attempts it had under way end as retryable failures. Loading the channels' modules
 * takes a moment (0.6 s here, seconds on a busy machine), so the delivery worker claims nothing
 * until `ready()` resolves: an attempt's deadline (half its lease) is for the receiver, and one
 * spent waiting for the thread could end after the receiver took the message, which then goes out
 * twice. For the same reason the thread does not start an attempt that waited in its queue until
 * the deadline (a thread at niceness 19 on a busy machine), and ends one that runs past it without
 * waiting for the abort, which would queue behind it. ./sending-thread.mjs is the thread itself.
 */
import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { WaitlistEntry } from "../generated/prisma/client";
import { errorFields, log } from "../log";
import type { Attempted, Channel, Delivery, DeliveryKind, HandOver } from "./worker";

/** Niceness 19: the site's threads (0) come first; the thread still gets a share when they are busy. */
const THREAD_NICENESS = 19;

type ChannelThreadOptions = {
  /** A module whose `channelsFor(config)` builds the channels, by its absolute path. */
  module: string;
  /** What channelsFor is given: copied to the thread, so plain data only. */
  config: unknown;
  kinds: readonly DeliveryKind[];
};

type Waiting = { resolve: (outcome: Attempted) => void; handOver?: HandOver };

type ThreadChannels = {
  channels: Partial<Record<DeliveryKind, Channel>>;
  /** Resolves when the thread (started now if it is not running) has built its channels; rejects if it fails first. */
  ready: () => Promise<void>;
};

/** One channel per kind, each attempting in the one thread. */
export function channelsInThread(options: ChannelThreadOptions): ThreadChannels {
  let thread: Worker | undefined;
  let threadReady: Promise<void> = Promise.resolve();
  let next = 0;
  const waiting = new Map<number, Waiting>();

  function lost(problem: string): void {
    thread = undefined;
    for (const { resolve } of waiting.values()) resolve({ delivered: false, retry: true, problem });
    waiting.clear();
  }

  function started(): Worker {
    if (thread) return thread;
    const worker = new Worker(/*turbopackIgnore: true*/ path.join(process.cwd(), "lib", "outbox", "sending-thread.mjs"), {
      workerData: { module: options.module, config: options.config, niceness: THREAD_NICENESS, loader: "tsx/esm/api" },
    });
    let built!: () => void;
    let failed!: (error: Error) => void;
    threadReady = new Promise<void>((resolve, reject) => {
      built = resolve;
      failed = reject;
    });
    // Nobody may be waiting for it yet: a failure is logged below, and ready() says it again.
    threadReady.catch(() => undefined);
    worker.on("message", ({ id, outcome, ready, handOver }: { id: number; outcome: Attempted; ready?: true; handOver?: true }) => {
      if (ready) return built();
      // The thread is about to end a message's data: it waits for the mark (HandOver in ./worker.ts).
      if (handOver) {
        const asked = waiting.get(id)?.handOver;
        void (asked ? asked() : Promise.resolve(false)).then((ok) => worker.postMessage({ handedOver: id, ok }));
        return;
      }
      waiting.get(id)?.resolve(outcome);
      waiting.delete(id);
      if (waiting.size === 0) worker.unref();
    });
    worker.on("error", (error) => {
      log.error({ fault: "delivery_worker", ...errorFields(error) }, "the sending thread failed; it is started again for the next attempt");
      failed(error);
      if (thread === worker) lost("the sending thread failed");
    });
    worker.on("exit", () => {
      failed(new Error("the sending thread stopped before its channels were built"));
      if (thread === worker) lost("the sending thread stopped");
    });
    // The thread keeps the process alive only while attempts are under way (unref after the
    // listeners: adding a message listener refs the thread again).
    worker.unref();
    thread = worker;
    return worker;
  }

  const channelOf =
    (kind: DeliveryKind): Channel =>
    (delivery: Delivery, entry: WaitlistEntry, signal: AbortSignal, deadline: number, handOver?: HandOver) =>
      new Promise<Attempted>((resolve) => {
        const worker = started();
        const id = (next += 1);
        if (waiting.size === 0) worker.ref();
        const onAbort = () => worker.postMessage({ abort: id, reason: signal.reason instanceof Error ? signal.reason.message : "aborted" });
        signal.addEventListener("abort", onAbort, { once: true });
        waiting.set(id, {
          handOver,
          resolve: (outcome) => {
            signal.removeEventListener("abort", onAbort);
            resolve(outcome);
          },
        });
        worker.postMessage({ id, kind, delivery, entry, deadline });
      });

  // Started now, not at the first claim: the site's first sign-ups then find it ready.
  started();
  return {
    channels: Object.fromEntries(options.kinds.map((kind) => [kind, channelOf(kind)])),
    ready: () => {
      started();
      return threadReady;
    },
  };
}
