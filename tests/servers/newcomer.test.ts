/**
 * The production server (server.ts, as `npm start` runs it) where it cannot start: one sentence
 * with the fix and exit code 1, no stack trace (issue 40). Needs a build.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { describe, expect, it } from "vitest";
import { BENCH_SECRET, ensureBuild, freshDatabase, serverEntry, startSiteServer } from "@/bench/support/site-server";
import { builtSiteUrl } from "@/lib/site/build-record";

/** Runs the server as `npm start` does until it exits: its exit code and everything it wrote. */
async function serverUntilExit(
  port: number,
  databaseFile: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...(await serverEntry()), "--port", String(port)], {
    env: {
      ...process.env,
      DATABASE_URL: `file:${databaseFile}`,
      WAITLIST_SECRET: BENCH_SECRET,
      NEXT_TELEMETRY_DISABLED: "1",
      SITE_URL: builtSiteUrl() ?? "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => void (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, output };
}

describe("npm start on a port already in use", () => {
  it("says so, and how to choose another, and exits 1", async () => {
    ensureBuild();
    const databaseFile = freshDatabase("servers-port-in-use");
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(3293, resolve));
    try {
      const { code, output } = await serverUntilExit(3293, databaseFile);
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

describe("the server started without its database file (not migrated)", () => {
  it("says so, and how to make it, and exits 1 without creating an empty one", async () => {
    ensureBuild();
    const directory = mkdtempSync(path.join(os.tmpdir(), "waitlist-no-db-"));
    const databaseFile = path.join(directory, "waitlist.db");
    try {
      const { code, output } = await serverUntilExit(3295, databaseFile);
      expect(code).toBe(1);
      expect(output).toContain("yet. Run npm run db:migrate (npm start does it first).");
      expect(output).not.toMatch(/\n\s+at /);
      expect(existsSync(databaseFile)).toBe(false);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("the server told to log in to a mail server that offers no TLS (issue 61)", () => {
  it("refuses to start in one sentence, before the password is sent", async () => {
    ensureBuild();
    const databaseFile = freshDatabase("servers-plaintext-smtp");
    const heard: string[] = [];
    const smtp = new SMTPServer({
      logger: false,
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        heard.push(auth.username ?? "");
        callback(null, { user: auth.username });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const smtpPort = (smtp.server.address() as { port: number }).port;
    try {
      const { code, output } = await serverUntilExit(3297, databaseFile, {
        SMTP_URL: `smtp://mailer:pw@127.0.0.1:${smtpPort}`,
        MAIL_FROM: "FieldCrew <hello@fieldcrew.example>",
      });
      expect(code).toBe(1);
      expect(output).toContain(`SMTP_URL has a user and password, but 127.0.0.1:${smtpPort} does not offer STARTTLS`);
      expect(output).toContain("SMTP_ALLOW_PLAINTEXT_AUTH=true");
      expect(output).not.toMatch(/\n\s+at /);
      expect(heard).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  }, 120_000);
});

describe("one build run under another address than it was made for (issue 62)", () => {
  it("refuses to start, naming both addresses, and starts with the build's", async () => {
    ensureBuild();
    const databaseFile = freshDatabase("servers-site-url");
    const built = builtSiteUrl();
    expect(built).not.toBeNull();
    const builtUrl = new URL(built || "http://localhost:3000").href.replace(/\/$/, "");
    const { code, output } = await serverUntilExit(3299, databaseFile, { SITE_URL: "https://fieldcrew.example" });
    expect(code).toBe(1);
    expect(output).toContain(`This build was made for SITE_URL=${builtUrl}`);
    expect(output).toContain("but the server runs with SITE_URL=https://fieldcrew.example");
    expect(output).not.toMatch(/\n\s+at /);

    const server = await startSiteServer({ port: 3299, databaseFile, env: { WAITLIST_SECRET: BENCH_SECRET } });
    try {
      const page = await (await fetch(`${server.url}/about`)).text();
      expect(page).toContain(`<link rel="canonical" href="${builtUrl}/about"/>`);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
