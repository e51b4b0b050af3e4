/**
 * The database on a disk that fills up, and on one that turns read-only: a tmpfs of 24 MiB
 * mounted by the test (the machines here run tests as root), with the real route handler and the
 * real health check. Sign-ups answer 503 and nothing acknowledged is lost, as before; /api/health
 * now says the database cannot write, and why, until it can again.
 */
import { execFileSync } from "node:child_process";
import { closeSync, copyFileSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import * as route from "@/app/api/waitlist/route";
import { closeDatabase, getDatabase } from "@/lib/db";
import { checkHealth, handleHealth, writeProblem } from "@/lib/health";
import { jsonRequest, signupBody } from "../support/requests";

const disk = mkdtempSync(path.join(tmpdir(), "waitlist-full-disk-"));
const file = path.join(disk, "waitlist.db");
const filler = path.join(disk, "filler");

beforeAll(() => {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=24m", "tmpfs", disk], { stdio: "pipe" });
  } catch (error) {
    throw new Error(
      `This test mounts a 24 MiB tmpfs and needs root (as CI runs): ${(error as { stderr?: Buffer }).stderr?.toString().trim()}`,
    );
  }
  copyFileSync(inject("templateDatabase"), file);
  process.env.DATABASE_URL = `file:${file}`;
});

afterAll(async () => {
  await closeDatabase();
  execFileSync("umount", [disk]);
  rmSync(disk, { recursive: true, force: true });
});

/** Fills the disk to the last byte. */
function fill(): void {
  const fd = openSync(filler, "w");
  const chunk = Buffer.alloc(256 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
  // The last few bytes, so not even a page fits.
  const small = openSync(`${filler}-tail`, "w");
  try {
    for (;;) writeSync(small, Buffer.alloc(512, 1));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(small);
  }
}

async function signUp(tag: string): Promise<{ email: string; status: number; retryAfter: string | null }> {
  const email = `${tag}.${crypto.randomUUID().slice(0, 8)}@full-disk.example`;
  const response = await route.POST(jsonRequest(signupBody({ email })));
  return { email, status: response.status, retryAfter: response.headers.get("retry-after") };
}

async function stored(): Promise<Set<string>> {
  const rows = await getDatabase().$queryRaw<{ email: string }[]>`SELECT email FROM waitlist_entries`;
  return new Set(rows.map((row) => row.email));
}

describe("a disk that fills up", () => {
  it("health says the database cannot write, and why; sign-ups answer 503 and every acknowledged one is kept", async () => {
    const acknowledged: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await signUp("before");
      expect(answer.status).toBe(201);
      acknowledged.push(answer.email);
    }
    expect((await checkHealth()).status).toBe("ok");

    fill();
    const whileFull = await checkHealth();
    expect(whileFull).toMatchObject({ status: "degraded", database: "cannot_write" });
    expect(whileFull.problems.join("; ")).toMatch(/^the disk holding the database is full \(\d+ KiB free\)$/);
    const answered = await handleHealth();
    expect(answered.status).toBe(503);
    expect(await answered.json()).toMatchObject({ status: "degraded", database: "cannot_write" });

    // Sign-ups meanwhile: each one stored (201) or refused as temporary (503, Retry-After), never a 500.
    let refused = 0;
    for (let i = 0; i < 10; i += 1) {
      const answer = await signUp("while-full");
      expect([201, 503]).toContain(answer.status);
      if (answer.status === 201) acknowledged.push(answer.email);
      else {
        refused += 1;
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      }
    }
    expect(refused).toBeGreaterThan(0);

    // Space again: sign-ups are stored, and health is ok once one has been.
    rmSync(filler);
    rmSync(`${filler}-tail`);
    for (let i = 0; i < 5; i += 1) {
      const answer = await signUp("after");
      expect(answer.status).toBe(201);
      acknowledged.push(answer.email);
    }
    expect(await checkHealth()).toMatchObject({ status: "ok", database: "ok", problems: [] });
    const kept = await stored();
    for (const email of acknowledged) expect(kept.has(email), email).toBe(true);
  });

  it("a read-only disk is reported as such, and clears when it is writable again", async () => {
    // Linux remounts read-only only a file system no one has a file open on for writing.
    await closeDatabase();
    execFileSync("mount", ["-o", "remount,ro", disk]);
    try {
      expect(await writeProblem(file)).toBe("the database's file system is read-only");
      const health = await checkHealth();
      expect(health.status).not.toBe("ok");
      expect(health.problems.join("; ")).toMatch(/read-only|cannot be opened/);
    } finally {
      await closeDatabase();
      execFileSync("mount", ["-o", "remount,rw", disk]);
    }
    expect((await signUp("writable-again")).status).toBe(201);
    expect((await checkHealth()).status).toBe("ok");
  });
});
