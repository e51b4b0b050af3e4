// Test-only (node --require, or imported by a test's database thread): lets a fault test break the
// database thread of a running process from outside, the way a bug, a resource limit or a hung disk
// would. The site never loads it.
//
// Preloads run in worker threads too, so this same file runs in the main thread and inside the
// database thread (recognised by its workerData). Orders travel on a BroadcastChannel, which reaches
// every thread of the process:
// - { fault: "throw" }: an uncaught error in the database thread (its "error" event, then "exit");
// - { fault: "exit-on-next-query" }: the thread exits as its next query arrives, before running it;
// - { fault: "hang", ms }: the thread is blocked for ms, as on a disk that stopped answering.
// From outside the process: SIGWINCH sends "throw", SIGURG a hang of FAULT_PROBE_HANG_MS (20 s).
// With FAULT_PROBE_FAIL_QUERIES_MATCHING set, every query whose SQL contains it fails with an error
// that quotes the query's values, as a library's error can (tests/servers/page-errors.test.ts).
const { isMainThread, workerData, parentPort } = process.getBuiltinModule("node:worker_threads");

const CHANNEL = "fieldcrew-fault-probe";

function broadcast(order) {
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(order);
  setTimeout(() => channel.close(), 1_000).unref();
}

if (isMainThread) {
  process.on("SIGWINCH", () => broadcast({ fault: "throw" }));
  process.on("SIGURG", () => broadcast({ fault: "hang", ms: Number(process.env.FAULT_PROBE_HANG_MS ?? 20_000) }));
} else if (workerData && workerData.config && workerData.setup) {
  const failMatching = process.env.FAULT_PROBE_FAIL_QUERIES_MATCHING;
  if (failMatching) {
    const failing = new Map();
    parentPort.on("message", (request) => {
      if (request && typeof request.id === "number" && typeof request.arg?.sql === "string" && request.arg.sql.includes(failMatching))
        failing.set(request.id, request.arg.args);
    });
    const post = parentPort.postMessage.bind(parentPort);
    parentPort.postMessage = (reply) => {
      if (!reply || !failing.has(reply.id)) return post(reply);
      const args = failing.get(reply.id);
      failing.delete(reply.id);
      return post({
        id: reply.id,
        ok: false,
        error: { name: "Error", message: `fault probe: the query failed with ${JSON.stringify(args)}` },
      });
    };
  }
  let exitOnNextQuery = false;
  // Registered before the thread's own handler (this file loads first), so it runs first.
  parentPort.on("message", () => {
    if (exitOnNextQuery) process.exit(1);
  });
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = ({ data }) => {
    if (data.fault === "throw") {
      setImmediate(() => {
        throw new Error("fault probe: an uncaught error in the database thread");
      });
    }
    if (data.fault === "exit-on-next-query") exitOnNextQuery = true;
    if (data.fault === "hang") {
      const until = Date.now() + data.ms;
      while (Date.now() < until);
    }
  };
}
