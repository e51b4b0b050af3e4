/**
 * The thread the delivery channels run in (./channel-thread.ts starts it). It loads the module
 * that builds the channels (TypeScript, through tsx, as the server itself runs), lowers its own CPU
 * priority, and answers each attempt with its outcome. Plain JavaScript: a worker thread gets
 * no loader of its own, so this file registers tsx before it imports anything of ours.
 */
import { setPriority } from "node:os";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";

// Named by the main side (tsx/esm/api), so that the site's bundler, which follows this file from
// the Worker it is started by, does not try to bundle tsx and its esbuild binary.
const { register } = await import(workerData.loader);
register();
const { channelsFor } = await import(pathToFileURL(workerData.module).href);
const channels = channelsFor(workerData.config);
// Lowered only now: loading the modules is most of the thread's CPU (0.6 s), done once as the site
// starts; at niceness 19 on a machine busy with other work it took over a minute, and every
// delivery waited for it. On Linux a niceness set from a thread is that thread's own: the site's
// threads keep theirs.
try {
  setPriority(workerData.niceness);
} catch {
  // Not allowed here (some containers): the thread runs at the site's priority.
}
// The main side claims nothing until it hears this (./channel-thread.ts, `ready`).
parentPort.postMessage({ ready: true });

/** An attempt with less time than this left before its deadline is not started. */
const START_MARGIN_MS = 100;

/** The attempts under way, by the main side's id: aborted when it says so (a deadline, a shutdown). */
const controllers = new Map();
/** Hand-overs asked of the main side, by attempt id: resolved with its answer (HandOver in ./worker.ts). */
const handOvers = new Map();

/** Asks the main side to mark the attempt's row handed over; true once it is. */
function handOverOf(id) {
  return () =>
    new Promise((resolve) => {
      handOvers.set(id, resolve);
      parentPort.postMessage({ id, handOver: true });
    });
}

/**
 * Aborts only after the thread has read its input once more: in a thread the machine starved, the
 * deadline (its timer, or the main side's abort among the messages) and the receiver's answer can
 * all be due when it runs again, and the answer, read first, makes the attempt a delivery. A
 * setImmediate callback runs at the end of the loop's turn; the one it schedules runs after the
 * next turn's poll, which reads whatever came in meanwhile (the messages are handled together,
 * so an abort can be read in the very turn that started its attempt).
 */
function abortAfterWaitingInput(controller, reason) {
  setImmediate(() => setImmediate(() => controller.abort(reason)));
}

parentPort.on("message", async (message) => {
  if (message.handedOver !== undefined) {
    handOvers.get(message.handedOver)?.(message.ok);
    handOvers.delete(message.handedOver);
    return;
  }
  if (message.abort !== undefined) {
    const controller = controllers.get(message.abort);
    if (controller) abortAfterWaitingInput(controller, new Error(message.reason));
    return;
  }
  const { id, kind, delivery, entry, deadline } = message;
  // Waited here until (nearly) its deadline: the main side has given it up, or is about to, and
  // will try it again; sent now, the receiver could take it twice.
  if (deadline - Date.now() < START_MARGIN_MS) {
    parentPort.postMessage({
      id,
      outcome: { delivered: false, retry: true, problem: "not started: the sending thread was busy until its deadline", atDeadline: true },
    });
    return;
  }
  const controller = new AbortController();
  controllers.set(id, controller);
  // Ended here at the deadline too: the main side's abort waits in this thread's queue.
  const deadlinePassed = new Error("the attempt's deadline passed");
  const timer = setTimeout(() => abortAfterWaitingInput(controller, deadlinePassed), deadline - Date.now());
  let outcome;
  try {
    const channel = channels[kind];
    outcome = channel
      ? await channel(delivery, entry, controller.signal, deadline, handOverOf(id))
      : { delivered: false, retry: false, problem: `no ${kind} channel` };
  } catch (error) {
    outcome = { delivered: false, retry: true, problem: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
    controllers.delete(id);
    handOvers.get(id)?.(false);
    handOvers.delete(id);
  }
  if (!outcome.delivered && controller.signal.reason === deadlinePassed) outcome = { ...outcome, atDeadline: true };
  parentPort.postMessage({ id, outcome });
});
