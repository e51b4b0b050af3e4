/**
 * The production server (server.ts, as `npm start` runs it) on a port another program holds: one
 * sentence with the fix and exit code 1, no stack trace (issue 40). Needs a build.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { BENCH_SECRET, ensureBuild, freshDatabase } from "@/bench/support/site-server";

describe("npm start on a port already in use", () => {
  it("says so, and how to choose another, and exits 1", async () => {
    ensureBuild();
    const databaseFile = freshDatabase("servers-port-in-use");
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(3293, resolve));
    try {
      const child = spawn(process.execPath, ["--import", "tsx", "server.ts", "--port", "3293"], {
        env: { ...process.env, DATABASE_URL: `file:${databaseFile}`, WAITLIST_SECRET: BENCH_SECRET, NEXT_TELEMETRY_DISABLED: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => void (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => void (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(code).toBe(1);
      expect(output).toContain(
        "Port 3293 is already in use (another server, perhaps an earlier npm start): stop it, or start on another port with PORT=3294 npm start.",
      );
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      holder.close();
    }
  }, 120_000);
});
