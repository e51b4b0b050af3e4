/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Says nothing a visitor needs and tells scanners what to try.
  poweredByHeader: false,
  experimental: {
    // The forms posted to pages (the join form, the console's) are a few KiB; server.ts refuses
    // a declared body over 64 KiB, and this cuts off one that does not declare its size.
    serverActions: { bodySizeLimit: "64kb" },
  },
};

export default nextConfig;
