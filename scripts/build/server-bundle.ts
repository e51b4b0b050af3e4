/**
 * The production server as one file: server.ts bundled into .next/fieldcrew/server.mjs
 * (scripts/build/bundle.mjs), which `npm start` runs with plain node. It lives in .next/ because
 * `next build` empties that folder, and every build is followed by a bundle (scripts/build/main.ts).
 */
import path from "node:path";
import { bundleEntry } from "./bundle.mjs";

/** Relative to the project's root, where every npm script runs; package.json's `start` names it too. */
const SERVER_BUNDLE = path.join(".next", "fieldcrew", "server.mjs");

/**
 * How node runs the bundle: with its source map, so a stack trace names lib/…/*.ts and its line
 * (as tsx's did), at about 0.3 s of CPU per start for the maps of Next's own chunks.
 */
export const SERVER_NODE_ARGS = ["--enable-source-maps", SERVER_BUNDLE] as const;

/** Bundles server.ts in `root` into SERVER_BUNDLE (and its map); the bundle's path. */
export function bundleServer(root = process.cwd()): Promise<string> {
  return bundleEntry(root, "server.ts", SERVER_BUNDLE);
}
