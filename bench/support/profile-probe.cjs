// Loaded into the server only by bench/profile-signups.ts (node --require). The first SIGURG
// starts V8's sampling profiler on the main thread, the second stops it and writes the profile
// to PROFILE_FILE: a profile of the measured window alone, without start-up and warm-up.
const { Session } = process.getBuiltinModule("node:inspector");
const { writeFileSync } = process.getBuiltinModule("node:fs");

const session = new Session();
session.connect();
let profiling = false;
process.on("SIGURG", () => {
  if (!profiling) {
    profiling = true;
    session.post("Profiler.enable", () => session.post("Profiler.start"));
    return;
  }
  profiling = false;
  session.post("Profiler.stop", (error, result) => {
    if (!error) writeFileSync(process.env.PROFILE_FILE, JSON.stringify(result.profile));
    process.stderr.write(`PROFILED ${error ? error.message : "ok"}\n`);
  });
});
