/**
 * The site's one secret (lib/security/secret.ts): WAITLIST_SECRET, or a file
 * beside the embedded database made on first start and kept; never a key of
 * the process's own.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { readOrCreateSecretFile, resolveSecret, secretFileOf, SecretUnavailable } from "@/lib/security/secret";

const made: string[] = [];
const directory = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "waitlist-secret-"));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe("the site's secret", () => {
  it("is WAITLIST_SECRET when it is set", () => {
    expect(resolveSecret(parseEnv({ WAITLIST_SECRET: "s".repeat(40), DATABASE_URL: `file:${directory()}/w.db` }))).toBe("s".repeat(40));
  });

  it("is otherwise made once beside the database file, mode 0600, and read back the same ever after", () => {
    const file = path.join(directory(), "waitlist.db");
    const env = parseEnv({ DATABASE_URL: `file:${file}` });
    const first = resolveSecret(env);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(secretFileOf(file)).mode & 0o777).toBe(0o600);
    expect(resolveSecret(env)).toBe(first);
    expect(readFileSync(secretFileOf(file), "utf8").trim()).toBe(first);
  });

  it("is the same for instances that read or create the file at the same time", () => {
    const file = path.join(directory(), "shared.secret");
    const secrets = Array.from({ length: 5 }, () => readOrCreateSecretFile(file));
    expect(new Set(secrets).size).toBe(1);
  });

  it("refuses a file too short to be a secret, with what to do", () => {
    const file = path.join(directory(), "short.secret");
    writeFileSync(file, "abc");
    expect(() => readOrCreateSecretFile(file)).toThrow(SecretUnavailable);
  });

  it("must be set with a libSQL server (instances on several machines share no file)", () => {
    const env = parseEnv({ DATABASE_URL: "libsql://waitlist-acme.turso.io", DATABASE_AUTH_TOKEN: "t" });
    expect(() => resolveSecret(env)).toThrow(/WAITLIST_SECRET must be set with a libSQL\/Turso DATABASE_URL/);
  });
});
