/**
 * Crash test: the production server on a real database file takes a stream of
 * valid sign-ups and is killed with SIGKILL in the middle of it, three times.
 * After each restart, every email that got a 201 must be in the database, and
 * the file must pass PRAGMA integrity_check. Exits non-zero if not.
 *
 *   npm run test:crash
 */
import Database from "better-sqlite3";
import { ensureBuild, freshDatabase, LOAD_TEST_ENV, startSiteServer } from "../../bench/support/site-server";
import { uniqueSignupBody } from "../../bench/support/signups";

const PORT = Number(process.env.CRASH_PORT ?? 3230);
const ROUNDS = 3;
const CONNECTIONS = 16;

type Round = { acknowledged: string[]; failedInFlight: number; killedAfterMs: number };

/** Sends sign-ups on `CONNECTIONS` parallel loops until the server stops answering. */
async function signUpUntilKilled(url: string, killAfterMs: number, kill: () => void): Promise<Round> {
  const acknowledged: string[] = [];
  let failedInFlight = 0;
  let stopped = false;
  const started = Date.now();
  const timer = setTimeout(() => {
    kill();
    stopped = true;
  }, killAfterMs);

  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (!stopped) {
        const { email, body } = uniqueSignupBody("crash");
        try {
          const response = await fetch(`${url}/api/waitlist`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
          });
          if (response.status === 201) acknowledged.push(email);
          else throw new Error(`unexpected ${response.status}: ${await response.text()}`);
        } catch (error) {
          if (!stopped && !(error instanceof TypeError)) throw error;
          // The server died with this request in flight: no answer, so no promise was made.
          failedInFlight += 1;
          if (stopped) return;
        }
      }
    }),
  );
  clearTimeout(timer);
  return { acknowledged, failedInFlight, killedAfterMs: Date.now() - started };
}

function check(databaseFile: string, acknowledged: string[]): { rows: number; missing: string[]; integrity: string } {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const stored = new Set((db.prepare("SELECT email FROM waitlist_entries").all() as { email: string }[]).map((row) => row.email));
    const integrity = (db.pragma("integrity_check", { simple: true }) as string) ?? "";
    return { rows: stored.size, missing: acknowledged.filter((email) => !stored.has(email)), integrity };
  } finally {
    db.close();
  }
}

async function main() {
  ensureBuild();
  const databaseFile = freshDatabase("crash");
  const allAcknowledged: string[] = [];
  let failures = 0;

  for (let round = 1; round <= ROUNDS; round += 1) {
    const server = await startSiteServer({ port: PORT, databaseFile, env: LOAD_TEST_ENV });
    const killAfterMs = 700 + Math.floor(Math.random() * 1_300);
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    const result = await signUpUntilKilled(server.url, killAfterMs, () => server.child.kill("SIGKILL"));
    await exited;
    allAcknowledged.push(...result.acknowledged);

    // Reopen through a restarted server, as an operator would after a crash.
    const restarted = await startSiteServer({ port: PORT, databaseFile, env: LOAD_TEST_ENV });
    const after = uniqueSignupBody("after-crash");
    const afterResponse = await fetch(`${restarted.url}/api/waitlist`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: after.body,
    });
    if (afterResponse.status === 201) allAcknowledged.push(after.email);
    await restarted.stop();

    const { rows, missing, integrity } = check(databaseFile, allAcknowledged);
    const ok = missing.length === 0 && integrity === "ok" && afterResponse.status === 201;
    if (!ok) failures += 1;
    console.log(
      `round ${round}: killed after ${result.killedAfterMs} ms | 201s this round ${result.acknowledged.length}, ` +
        `requests cut off ${result.failedInFlight} | rows ${rows} (acknowledged so far ${allAcknowledged.length}) | ` +
        `missing ${missing.length} | integrity_check ${integrity} | sign-up after restart ${afterResponse.status} | ${ok ? "OK" : "FAILED"}`,
    );
    if (missing.length) console.log(`  missing: ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? " ..." : ""}`);
  }

  if (failures > 0) {
    console.error(`Crash test FAILED in ${failures} of ${ROUNDS} rounds.`);
    process.exit(1);
  }
  console.log(`Crash test passed: ${allAcknowledged.length} acknowledged sign-ups, all stored, database intact.`);
}

await main();
