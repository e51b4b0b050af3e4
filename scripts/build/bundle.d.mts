/** Bundles `entry` into `outfile` (both relative to `root`) with its map; the bundle's absolute path (bundle.mjs). */
export function bundleEntry(root: string, entry: string, outfile: string): Promise<string>;
