/**
 * Which code may run in the browser is marked: server-only modules import
 * "server-only", and ESLint refuses a client component that reaches one, directly
 * or through modules of ours in between (eslint.config.mjs). `next build` refuses
 * the same; this proves the editor's and `npm run lint`'s half on the real config.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root });

/** The boundary rule's messages for `code` as if it were the client component `file`. */
async function boundaryProblems(code: string, file = "components/waitlist/probe.tsx"): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((message) => message.ruleId === "boundary/no-server-only-in-client").map((message) => message.message);
}

const client = (imports: string) => `"use client";\n${imports}\nexport function Probe() {\n  return null;\n}\n`;

describe("the server/browser boundary", () => {
  it("refuses a client component importing a server-only module", async () => {
    expect(await boundaryProblems(client(`import { addToWaitlist } from "@/lib/waitlist/store";\nvoid addToWaitlist;`))).toEqual([
      expect.stringContaining("lib/waitlist/store.ts"),
    ]);
    expect(await boundaryProblems(client(`import { getDatabase } from "../../lib/db";\nvoid getDatabase;`))).toEqual([
      expect.stringContaining("lib/db/index.ts"),
    ]);
  });

  it("refuses one that reaches a server-only module through a browser-safe one, and names the chain", async () => {
    const [problem] = await boundaryProblems(client(`import { helper } from "@/tests/fixtures/boundary/probe-helper";\nvoid helper;`));
    expect(problem).toContain("tests/fixtures/boundary/probe-helper.ts -> lib/waitlist/entry-link.ts");
  });

  it("lets client components import browser-safe modules, types from server-only ones, and lets server code import anything", async () => {
    expect(
      await boundaryProblems(
        client(
          `import { waitlistSignupSchema } from "@/lib/waitlist/schema";\nimport { submitSignup } from "@/lib/waitlist/submit";\nvoid waitlistSignupSchema;\nvoid submitSignup;`,
        ),
      ),
    ).toEqual([]);
    expect(
      await boundaryProblems(client(`import type { StoreResult } from "@/lib/waitlist/store";\nexport type R = StoreResult;`)),
    ).toEqual([]);
    expect(
      await boundaryProblems(`import { addToWaitlist } from "@/lib/waitlist/store";\nvoid addToWaitlist;\n`, "app/probe/page.tsx"),
    ).toEqual([]);
  });

  it("has every client component of the site on the browser's side of it", async () => {
    const clientFiles = ["app", "components"].flatMap((dir) =>
      readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".tsx") || file.endsWith(".ts"))
        .map((file) => path.join(dir, file))
        .filter((file) => readFileSync(path.join(root, file), "utf8").startsWith('"use client"')),
    );
    expect(clientFiles.length).toBeGreaterThan(5);
    for (const file of clientFiles) expect(await boundaryProblems(readFileSync(path.join(root, file), "utf8"), file), file).toEqual([]);
  });

  it("marks every module of lib/ that reaches the database as server-only", () => {
    const libFiles = readdirSync(path.join(root, "lib"), { recursive: true, encoding: "utf8" }).filter(
      (file) => /\.tsx?$/.test(file) && !file.startsWith("generated"),
    );
    const unmarked = libFiles.filter((file) => {
      const source = readFileSync(path.join(root, "lib", file), "utf8").replace(/^import type .+$/gm, "");
      const reachesDatabase = file.startsWith("db/") || /from ["'](?:(?:\.\.\/)+db|\.\/db|@\/lib\/db)["']/.test(source);
      return reachesDatabase && !/^import "server-only";$/m.test(source);
    });
    expect(unmarked).toEqual([]);
  });
});
