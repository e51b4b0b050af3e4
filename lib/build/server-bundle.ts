/**
 * The production server as one file: server.ts and the modules of ours it imports, bundled by
 * esbuild into .next/fieldcrew/server.mjs, the packages left to node_modules. `npm start` runs it
 * with plain node. Run through tsx instead, whose loader hooks see every module Next loads, a start
 * took twice the CPU (docs/performance.md, "Starting the server").
 *
 * Made again at every start (about 60 ms), so it is never older than the sources, and written only
 * when it changed, each file by a rename: a server starting at that moment reads the old file or
 * the new one, never half of one. It lives in .next/ because `next build` empties that folder, and
 * every build is followed by a bundle (lib/build/main.ts).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

/** Relative to the project's root, where every npm script runs; package.json's `start` names it too. */
const SERVER_BUNDLE = path.join(".next", "fieldcrew", "server.mjs");

/**
 * How node runs the bundle: with its source map, so a stack trace names lib/…/*.ts and its line
 * (as tsx's did), at about 0.3 s of CPU per start for the maps of Next's own chunks.
 */
export const SERVER_NODE_ARGS = ["--enable-source-maps", SERVER_BUNDLE] as const;

function writeIfChanged(file: string, contents: Uint8Array): void {
  try {
    if (Buffer.compare(readFileSync(file), contents) === 0) return;
  } catch {
    // Not there yet.
  }
  const next = `${file}.${process.pid}.tmp`;
  writeFileSync(next, contents);
  renameSync(next, file);
}

/** Bundles server.ts in `root` into SERVER_BUNDLE (and its map); the bundle's path. */
export async function bundleServer(root = process.cwd()): Promise<string> {
  const outfile = path.join(root, SERVER_BUNDLE);
  const result = await build({
    absWorkingDir: root,
    entryPoints: ["server.ts"],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    write: false,
    logLevel: "warning",
  });
  mkdirSync(path.dirname(outfile), { recursive: true });
  // The map before the code that names it.
  const files = [...result.outputFiles].sort((a, b) => Number(b.path.endsWith(".map")) - Number(a.path.endsWith(".map")));
  for (const file of files) writeIfChanged(file.path, file.contents);
  return outfile;
}
