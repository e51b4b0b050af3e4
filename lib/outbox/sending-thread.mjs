/**
 * The thread the delivery channels run in (./channel-thread.ts starts it). It lowers its own CPU
 * priority, loads the module that builds the channels (TypeScript, through tsx, as the server
 * itself runs), and answers each attempt with its outcome. Plain JavaScript: a worker thread gets
 * no loader of its own, so this file registers tsx before it imports anything of ours.
 */
import { setPriority } from "node:os";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";

// On Linux a niceness set from a thread is that thread's own: the site's threads keep theirs.
try {
  setPriority(workerData.niceness);
} catch {
  // Not allowed here (some containers): the thread runs at the site's priority.
}
// Named by the main side (tsx/esm/api), so that the site's bundler, which follows this file from
// the Worker it is started by, does not try to bundle tsx and its esbuild binary.
const { register } = await import(workerData.loader);
register();
const { channelsFor } = await import(pathToFileURL(workerData.module).href);
const channels = channelsFor(workerData.config);
// The main side claims nothing until it hears this (./channel-thread.ts, `ready`).
parentPort.postMessage({ ready: true });

/** The attempts under way, by the main side's id: aborted when it says so (a deadline, a shutdown). */
const controllers = new Map();

parentPort.on("message", async (message) => {
  if (message.abort !== undefined) {
    controllers.get(message.abort)?.abort(new Error(message.reason));
    return;
  }
  const { id, kind, delivery, entry } = message;
  const controller = new AbortController();
  controllers.set(id, controller);
  let outcome;
  try {
    const channel = channels[kind];
    outcome = channel
      ? await channel(delivery, entry, controller.signal)
      : { delivered: false, retry: false, problem: `no ${kind} channel` };
  } catch (error) {
    outcome = { delivered: false, retry: true, problem: error instanceof Error ? error.message : String(error) };
  } finally {
    controllers.delete(id);
  }
  parentPort.postMessage({ id, outcome });
});
