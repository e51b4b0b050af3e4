import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

/** Migrates a template database with the project's own migration command. */
export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), "waitlist-vitest-"));
  const templateDatabase = path.join(dir, "template.db");
  try {
    execFileSync(path.join("node_modules", ".bin", "tsx"), ["prisma/migrate.ts"], {
      env: { ...process.env, DATABASE_URL: `file:${templateDatabase}` },
      stdio: "pipe",
    });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
    throw new Error(`Migrating the test database failed:\n${stderr}`);
  }
  project.provide("templateDatabase", templateDatabase);
  return () => rmSync(dir, { recursive: true, force: true });
}
