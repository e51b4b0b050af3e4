/**
 * `npm run db:generate`: Prisma Client into lib/generated/prisma from prisma/schema.prisma, only
 * when what it is made from changed since it was last made (the schema, the Prisma version, the
 * CLI's config). Every `npm start`, `npm run dev` and `npm test` runs it; regenerating deletes
 * and rewrites the folder, which is a second or two, and a race with anything reading it (npm
 * test's typecheck beside its build).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileDigests } from "../scripts/build/inputs";

const OUTPUT = path.join("lib", "generated", "prisma");
const RECORD = path.join(OUTPUT, ".made-from");
const INPUTS = ["prisma/schema.prisma", "prisma.config.ts", "node_modules/prisma/package.json", "node_modules/@prisma/client/package.json"];

// The same record of files as the production build's (scripts/build/inputs.ts).
const madeFrom = JSON.stringify(fileDigests(".", INPUTS));

const current = existsSync(path.join(OUTPUT, "client.ts")) && existsSync(RECORD) && readFileSync(RECORD, "utf8").trim() === madeFrom;
if (current) {
  console.log("Prisma Client is up to date.");
} else {
  try {
    execFileSync(path.join("node_modules", ".bin", "prisma"), ["generate", "--no-hints"], { stdio: "inherit" });
  } catch {
    // Prisma has said what went wrong.
    process.exit(1);
  }
  writeFileSync(RECORD, `${madeFrom}\n`);
}
