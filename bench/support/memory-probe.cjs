// Loaded into the server only by the bench scripts (node --expose-gc --require).
// On SIGUSR2: a full garbage collection, then the process's memory on stderr,
// so a run can tell memory still in use from memory the collector had not reclaimed yet.
process.on("SIGUSR2", () => {
  global.gc?.();
  const { rss, heapUsed, external } = process.memoryUsage();
  const mib = (bytes) => Math.round((bytes / 1048576) * 10) / 10;
  process.stderr.write(`MEMORY ${JSON.stringify({ rss: mib(rss), heapUsed: mib(heapUsed), external: mib(external) })}\n`);
});
