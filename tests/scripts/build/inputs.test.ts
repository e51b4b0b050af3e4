/**
 * `npm start` builds only when the build's inputs changed (scripts/build/inputs.ts, issue 40), and
 * bundles the server it runs (scripts/build/server-bundle.ts): on a project tree of files in a
 * temporary folder, as the start would see it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { currentInputs, recordInputs, whyRebuild } from "@/scripts/build/inputs";
import { bundleServer, SERVER_NODE_ARGS } from "@/scripts/build/server-bundle";

const root = mkdtempSync(path.join(tmpdir(), "build-inputs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function put(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

describe("whether npm start builds", () => {
  it("builds the first time, skips when nothing changed, and says what changed when something did", () => {
    put("app/page.tsx", "export default function Page() { return null; }\n");
    put("lib/content/site.ts", "export const NAME = 'FieldCrew';\n");
    put("package-lock.json", "{}\n");
    put("server.ts", "// not built\n");
    put("lib/generated/prisma/client.ts", "// generated\n");
    const env = { SITE_URL: "https://fieldcrew.app" };
    expect(whyRebuild(root, currentInputs(root, env))).toBe("there is no build yet");

    put(".next/BUILD_ID", "abc\n");
    expect(whyRebuild(root, currentInputs(root, env))).toMatch(/^the build does not say what it was made from/);
    recordInputs(root, currentInputs(root, env));
    expect(whyRebuild(root, currentInputs(root, env))).toBeNull();

    // Not inputs: the server's own entry point, the generated client, an unrelated variable.
    put("server.ts", "// changed, still not built\n");
    put("lib/generated/prisma/client.ts", "// generated again\n");
    expect(whyRebuild(root, currentInputs(root, { ...env, SMTP_URL: "smtp://mail" }))).toBeNull();

    put("lib/content/site.ts", "export const NAME = 'FieldCrew Pro';\n");
    put("components/new.tsx", "export {};\n");
    expect(whyRebuild(root, currentInputs(root, env))).toBe("changed since the last build: components/new.tsx, lib/content/site.ts");
    recordInputs(root, currentInputs(root, env));

    expect(whyRebuild(root, currentInputs(root, { SITE_URL: "https://www.fieldcrew.app", NEXT_PUBLIC_FLAG: "1" }))).toBe(
      "NEXT_PUBLIC_FLAG, SITE_URL differ from the last build's",
    );
    rmSync(path.join(root, "package-lock.json"));
    expect(whyRebuild(root, currentInputs(root, env))).toBe("changed since the last build: package-lock.json");
    rmSync(path.join(root, "lib/generated"), { recursive: true });
    expect(whyRebuild(root, currentInputs(root, env))).toBe("the Prisma Client has not been generated");
  });
});

describe("the server's bundle npm start runs", () => {
  it("is made from server.ts as it is now, runs with plain node, and is written again only when it changed", async () => {
    const project = mkdtempSync(path.join(tmpdir(), "server-bundle-"));
    try {
      const put = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
        writeFileSync(path.join(project, file), text);
      };
      put("lib/greeting.ts", "export const greeting = (name: string): string => `started ${name}`;\n");
      put("server.ts", 'import { greeting } from "./lib/greeting";\nconsole.log(greeting("one"));\n');
      const bundle = await bundleServer(project);
      expect(path.relative(project, bundle)).toBe(path.join(".next", "fieldcrew", "server.mjs"));
      // What npm start runs (package.json names it too).
      const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
      expect(scripts.start).toBe(`node ${SERVER_NODE_ARGS.join(" ")}`);
      const run = () => execFileSync(process.execPath, SERVER_NODE_ARGS, { cwd: project, encoding: "utf8" }).trim();
      expect(run()).toBe("started one");

      const written = statSync(bundle).mtimeMs;
      await bundleServer(project);
      expect(statSync(bundle).mtimeMs).toBe(written);

      put("lib/greeting.ts", "export const greeting = (name: string): string => `started ${name}, changed`;\n");
      await bundleServer(project);
      expect(run()).toBe("started one, changed");
      // No temporary file left beside it.
      expect(readdirSync(path.dirname(bundle)).sort()).toEqual(["server.mjs", "server.mjs.map"]);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
