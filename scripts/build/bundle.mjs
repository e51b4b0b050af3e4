/**
 * One TypeScript entry point of ours and the modules it imports, bundled by esbuild into one file
 * that plain node runs, the packages left to node_modules: what `npm start` runs for server.ts
 * (server-bundle.ts) and `npm run waitlist` for the operator tool (scripts/waitlist.mjs).
 * Through tsx instead, whose loader hooks see every module the process loads, a start costs about
 * twice the CPU (docs/performance.md, "The test run and the start").
 *
 * Plain JavaScript, so that the operator tool's launcher can bundle without starting tsx. Made
 * at every run, so it is never older than the sources, and written only when it
 * changed, each file by a rename: a process starting at that moment reads the old file or the new
 * one, never half of one. The map comes first, the code that names it second.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

/** @param {string} file @param {Uint8Array} contents */
function writeIfChanged(file, contents) {
  try {
    if (Buffer.compare(readFileSync(file), contents) === 0) return;
  } catch {
    // Not there yet.
  }
  const next = `${file}.${process.pid}.tmp`;
  writeFileSync(next, contents);
  renameSync(next, file);
}

/**
 * Bundles `entry` (relative to `root`) into `outfile` (relative to `root`) and its map; the
 * bundle's absolute path.
 * @param {string} root @param {string} entry @param {string} outfile
 * @returns {Promise<string>}
 */
export async function bundleEntry(root, entry, outfile) {
  const target = path.join(root, outfile);
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile: target,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    write: false,
    logLevel: "warning",
  });
  mkdirSync(path.dirname(target), { recursive: true });
  const files = [...result.outputFiles].sort((a, b) => Number(b.path.endsWith(".map")) - Number(a.path.endsWith(".map")));
  for (const file of files) writeIfChanged(file.path, file.contents);
  return target;
}
