/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Says nothing a visitor needs and tells scanners what to try.
  poweredByHeader: false,
  // The front door compresses every answer, with Brotli where the browser accepts it, which Next
  // cannot do (lib/site/compression.ts).
  compress: false,
  // `npm test` checks the types in a stage of its own (`npm run typecheck`: Next's route types,
  // then tsc), so the build it makes skips Next's second check of the same files (23 s of a 63 s
  // build on the 2-core machine). Every other build checks them.
  typescript: { ignoreBuildErrors: process.env.BUILD_SKIPS_TYPE_CHECK === "1" },
  experimental: {
    // The forms posted to pages (the join form, the console's) are a few KiB; server.ts refuses
    // a declared body over 64 KiB, and this cuts off one that does not declare its size.
    serverActions: { bodySizeLimit: "64kb" },
  },
};

export default nextConfig;
