// Test-only (node --require): lets a fault test break the database thread of a running server
// from outside, the way a bug or a resource limit would. It is never loaded by the site itself.
//
// In the main thread, SIGWINCH (ignored by default, so harmless without this probe) tells every
// database thread to throw an uncaught error. The message travels on a BroadcastChannel, which
// reaches every thread of the process; preloads run in worker threads too, so the receiving end
// is this same file, running inside the database thread (recognised by its workerData).
const { isMainThread, workerData } = process.getBuiltinModule("node:worker_threads");

const CHANNEL = "fieldcrew-fault-probe";

if (isMainThread) {
  process.on("SIGWINCH", () => {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage({ fault: "throw" });
    setTimeout(() => channel.close(), 1_000).unref();
  });
} else if (workerData && workerData.config && workerData.setup) {
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = ({ data }) => {
    if (data.fault === "throw") {
      setImmediate(() => {
        throw new Error("fault probe: an uncaught error in the database thread");
      });
    }
    // Blocks the thread, as a hung disk would.
    if (data.fault === "hang") {
      const until = Date.now() + data.ms;
      while (Date.now() < until);
    }
  };
}
