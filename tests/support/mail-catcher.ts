/**
 * A real SMTP server for a test file (e2e/support/mail-catcher.ts): started before its tests,
 * emptied before each, closed after all. `received()` is every message it holds, raw.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { startMailCatcher } from "@/e2e/support/mail-catcher";

export function mailCatcherForTests(): { dir: string; smtpUrl: () => string; received: () => Buffer[] } {
  const dir = mkdtempSync(path.join(tmpdir(), "waitlist-mail-"));
  let catcher: SMTPServer;
  let url = "";
  beforeAll(async () => {
    catcher = await startMailCatcher({ port: 0, dir });
    url = `smtp://127.0.0.1:${(catcher.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => catcher.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    for (const file of readdirSync(dir)) rmSync(path.join(dir, file));
  });
  return {
    dir,
    smtpUrl: () => url,
    received: () =>
      readdirSync(dir)
        .filter((file) => file.endsWith(".eml"))
        .sort()
        .map((file) => readFileSync(path.join(dir, file))),
  };
}
