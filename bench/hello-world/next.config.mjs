import path from "node:path";

/**
 * The hello-world fixture: the same Next.js as the site, nothing else, so
 * benchmarks can compare the site with the framework's own floor
 * (docs/performance.md). It uses the repository's node_modules.
 */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  turbopack: { root: path.resolve(import.meta.dirname, "../..") },
};

export default nextConfig;
