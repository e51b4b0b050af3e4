/**
 * What a production build (`next build`) is made from, and whether the build in .next/ was made
 * from what is here now: `npm start` builds only when something changed (issue 40). The build
 * records its inputs in .next/fieldcrew-build.json after it succeeds (`npm run build`).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BUILD_RECORD } from "../../lib/site/build-record";

/** Folders whose every file the build may read (generated Prisma Client included: it is rebuilt from the schema). */
const SOURCE_DIRS = ["app", "components", "lib"];
/** Files at the top that shape Next's build. server.ts is not: it is bundled again at every start (scripts/build/server-bundle.ts). */
const SOURCE_FILES = [
  "next.config.mjs",
  "tsconfig.json",
  "postcss.config.mjs",
  "package.json",
  "package-lock.json",
  "prisma/schema.prisma",
];
/** Never inputs: generated output, and this module's own record. */
const SKIPPED = new Set(["lib/generated"]);

/**
 * The environment the prerendered pages read at build time (app/layout.tsx and the sitemap: SITE_URL;
 * the privacy notice: the retention period), and whatever Next inlines (NEXT_PUBLIC_*). A page that
 * starts reading another variable at build time belongs here.
 */
const BUILD_ENV = ["SITE_URL", "WAITLIST_RETENTION_DAYS"];

type BuildInputs = { files: Record<string, string>; env: Record<string, string> };

function filesUnder(root: string, dir: string, into: string[]): void {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (SKIPPED.has(relative)) continue;
    if (entry.isDirectory()) filesUnder(root, relative, into);
    else if (entry.isFile()) into.push(relative);
  }
}

/** Each file's SHA-256 (hex), by its path relative to `root`, in the order given. */
export function fileDigests(root: string, names: string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => [
      name,
      createHash("sha256")
        .update(readFileSync(path.join(root, name)))
        .digest("hex"),
    ]),
  );
}

/** The build's inputs in `root` now: each file's SHA-256, and the build-time variables' values. */
export function currentInputs(root: string, env: Record<string, string | undefined> = process.env): BuildInputs {
  const names: string[] = [];
  for (const dir of SOURCE_DIRS) if (existsSync(path.join(root, dir))) filesUnder(root, dir, names);
  for (const file of SOURCE_FILES) if (existsSync(path.join(root, file))) names.push(file);
  const files = fileDigests(root, names.sort());
  const variables = [...BUILD_ENV, ...Object.keys(env).filter((name) => name.startsWith("NEXT_PUBLIC_"))].sort();
  return { files, env: Object.fromEntries(variables.map((name) => [name, env[name] ?? ""])) };
}

/** Why the build in `root` must be made again, in words; null when it was made from `now`. */
export function whyRebuild(root: string, now: BuildInputs): string | null {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) return "there is no build yet";
  if (!existsSync(path.join(root, "lib", "generated", "prisma"))) return "the Prisma Client has not been generated";
  let before: BuildInputs;
  try {
    before = JSON.parse(readFileSync(path.join(root, BUILD_RECORD), "utf8")) as BuildInputs;
  } catch {
    return "the build does not say what it was made from (made by an older version, or by next build directly)";
  }
  const changed = [...new Set([...Object.keys(before.files), ...Object.keys(now.files)])]
    .filter((name) => before.files[name] !== now.files[name])
    .sort();
  const variables = [...new Set([...Object.keys(before.env ?? {}), ...Object.keys(now.env)])]
    .filter((name) => (before.env?.[name] ?? "") !== (now.env[name] ?? ""))
    .sort();
  if (changed.length === 0 && variables.length === 0) return null;
  const list = (items: string[]) => (items.length <= 3 ? items.join(", ") : `${items.slice(0, 3).join(", ")} and ${items.length - 3} more`);
  return [
    changed.length > 0 ? `changed since the last build: ${list(changed)}` : null,
    variables.length > 0 ? `${list(variables)} differ from the last build's` : null,
  ]
    .filter(Boolean)
    .join("; ");
}

/** Records what the build in `root` was made from (after it succeeded). */
export function recordInputs(root: string, inputs: BuildInputs): void {
  writeFileSync(path.join(root, BUILD_RECORD), JSON.stringify(inputs));
}
