// Loaded into a command by tests that print its memory (node --require): on exit,
// the process's peak resident memory (getrusage's maxRSS) on stderr.
process.on("exit", () => {
  const peakMiB = process.resourceUsage().maxRSS / 1024;
  process.stderr.write(`peak RSS ${peakMiB.toFixed(1)} MiB\n`);
});
